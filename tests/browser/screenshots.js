// screenshots.js SITE OUT_DIR
//
// The README's pictures: the index and the richest project overview of a
// built site (the example), in Debian's chromium (headless, through
// playwright-core), 1280 px wide, light mode, the top 900 px: written as
// OUT_DIR/index.png and OUT_DIR/project.png. 'make screenshots' runs it
// (tests/browser/screenshots.sh).
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
  const b = await launch({ viewport: { width: 1280, height: 900 } });
  try {
    const page = b.context.pages()[0] || await b.context.newPage();
    await page.emulateMedia({ colorScheme: 'light' });
    fs.mkdirSync(out, { recursive: true });
    for (const [name, rel] of [['index', 'index.html'],
      ['project', `projects/${projects[0]}/index.html`]]) {
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
