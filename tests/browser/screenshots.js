// screenshots.js SITE OUT_DIR
//
// The README's pictures of a built site (the example), in Debian's
// chromium (headless, through playwright-core), light mode: the index,
// the richest project overview and the open conflict with the most
// members and the first conflict a reviewer resolved at 1280x900
// (OUT_DIR/index.png, project.png, conflict.png, conflict-resolved.png),
// and that project overview on a phone, 390x844 (project-phone.png).
// 'make screenshots' runs it (tests/browser/screenshots.sh).
'use strict';
const fs = require('fs');
const path = require('path');
const { launch } = require('./chromium.js');

const [site, out] = process.argv.slice(2).map((p) => path.resolve(p));

(async () => {
  // The richest project overview: the most table rows (facts), ties
  // by slug. (The most files under its folder no longer told them
  // apart: every project has the same few pages.)
  const dir = path.join(site, 'projects');
  const rows = (p) => (fs.readFileSync(path.join(dir, p, 'index.html'),
    'utf8').match(/<tr[ >]/g) || []).length;
  const projects = fs.readdirSync(dir).sort()
    .filter((p) => fs.existsSync(path.join(dir, p, 'index.html')));
  const nrows = Object.fromEntries(projects.map((p) => [p, rows(p)]));
  projects.sort((a, b) => nrows[b] - nrows[a] || (a < b ? -1 : 1));
  if (projects.length === 0) throw new Error(`${dir}: no project overview`);
  // The open conflict with the most members (ties: the first by id),
  // from each project's list (api/conflicts/projects/<slug>.json, which
  // api/conflicts.json names), whose page is conflicts/<id>.html.
  const read = (rel) => JSON.parse(fs.readFileSync(path.join(site, rel),
    'utf8'));
  const open = read('api/conflicts.json').projects
    .flatMap((p) => read(p.json).conflicts)
    .filter((c) => c.conflict.status === 'open' && fs.existsSync(
      path.join(site, 'conflicts', `${c.conflict.id}.html`)))
    .map((c) => ({ slug: c.conflict.id, id: c.conflict.id,
      members: c.members }))
    .sort((a, b) => b.members.length - a.members.length ||
      (a.id < b.id ? -1 : 1));
  if (open.length === 0) throw new Error(`${site}: no open conflict`);
  // The first conflict a reviewer resolved, by id (screenshots.sh
  // makes one).
  const resolved = read('api/conflicts.json').projects
    .flatMap((p) => read(p.json).conflicts)
    .filter((c) => c.conflict.status === 'resolved' &&
      c.conflict.resolved_by !== 'sweep')
    .map((c) => c.conflict.id).sort();
  if (resolved.length === 0) throw new Error(`${site}: no resolved conflict`);
  const shots = [
    ['index', 'index.html', 1280, 900],
    ['project', `projects/${projects[0]}/index.html`, 1280, 900],
    ['conflict', `conflicts/${open[0].slug}.html`, 1280, 900],
    ['conflict-resolved', `conflicts/${resolved[0]}.html`, 1280, 900],
    ['project-phone', `projects/${projects[0]}/index.html`, 390, 844],
  ];
  const b = await launch({ viewport: { width: 1280, height: 900 } });
  try {
    const page = b.context.pages()[0] || await b.context.newPage();
    await page.emulateMedia({ colorScheme: 'light' });
    fs.mkdirSync(out, { recursive: true });
    for (const [name, rel, width, height] of shots) {
      await page.setViewportSize({ width, height });
      await page.goto('file://' + path.join(site, rel));
      await page.screenshot({ path: path.join(out, `${name}.png`) });
      console.log(`screenshots: ${path.join(out, name + '.png')} (${rel})`);
    }
  } finally {
    await b.close();
  }
})().catch((e) => {
  console.error(`screenshots: ${e && e.stack || e}`);
  process.exit(1);
});
