// screenshots.js SITE OUT_DIR
//
// The README's pictures of a built site (the example), in Debian's
// chromium (headless, through playwright-core), light mode: the index,
// the richest project overview and the open conflict with the most
// members at 1280x900 (OUT_DIR/index.png, project.png, conflict.png),
// and that project overview on a phone, 390x844 (project-phone.png).
// 'make screenshots' runs it (tests/browser/screenshots.sh).
'use strict';
const fs = require('fs');
const path = require('path');
const { launch } = require('./chromium.js');

const [site, out] = process.argv.slice(2).map((p) => path.resolve(p));

(async () => {
  // The overview of the project with the most files under its folder.
  const dir = path.join(site, 'projects');
  const count = (d) => fs.readdirSync(d, { recursive: true }).length;
  const projects = fs.readdirSync(dir).sort()
    .filter((p) => fs.existsSync(path.join(dir, p, 'index.html')));
  projects.sort((a, b) => count(path.join(dir, b)) - count(path.join(dir, a)));
  if (projects.length === 0) throw new Error(`${dir}: no project overview`);
  // The open conflict with the most members (ties: the first by id).
  const api = JSON.parse(fs.readFileSync(path.join(site, 'api',
    'conflicts.json'), 'utf8'));
  const open = api.conflicts.filter((c) => c.open)
    .sort((a, b) => b.members.length - a.members.length ||
      (a.id < b.id ? -1 : 1));
  if (open.length === 0) throw new Error(`${site}: no open conflict`);
  const shots = [
    ['index', 'index.html', 1280, 900],
    ['project', `projects/${projects[0]}/index.html`, 1280, 900],
    ['conflict', `conflicts/${open[0].slug}.html`, 1280, 900],
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
