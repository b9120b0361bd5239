// validators.test.js SITE SHOT_DIR NAME [PER_KIND]
//
// axe-core and the layout checks over every HTML page of a built site
// (the example), or over the PER_KIND largest pages of each kind (a
// 10,000-fact bench site), opened from file:// in Debian's chromium
// (headless, through playwright-core). Prints one TAP line per case ("ok
// N - t_site_validators: NAME: ..."), as tests/run.sh counts them; the
// count is the same for any site, so tests/manifest can hold it:
//
//  - per page kind (index, project overview, decisions, subsystem,
//    conflict, queue, check (a project's checks of a rule, a rule), checks, 404, A-Z, then "other": any page of a kind added
//    later)
//    and view (light and dark, through emulateMedia, 1280 px wide; light
//    390 px wide): axe-core, every rule it runs by default, finds no
//    violation on any page of the kind; a finding names the rule, its
//    impact, the page and the element;
//  - per page kind and width (390 px, a phone; 1280 px, a desktop): no
//    page of the kind scrolls sideways (documentElement.scrollWidth <=
//    innerWidth), and the largest page of the kind is screenshotted to
//    SHOT_DIR/<kind>-<width>.png (the top 900 px; -1280-dark.png too) for
//    a person to look at;
//  - the known kinds each have a page, dark mode changes the colours,
//    nothing is fetched from another host, and a page made to fail the
//    checks fails them (so the checks can fail).
'use strict';
const fs = require('fs');
const path = require('path');
const { launch } = require('./chromium.js');

const [site, shotDir] = process.argv.slice(2, 4).map((p) => path.resolve(p));
const siteName = process.argv[4] || path.basename(site);
const perKind = Number(process.argv[5]) || Infinity;
const axeSource = path.join(__dirname, 'node_modules/axe-core/axe.min.js');
let n = 0;
let failed = 0;
function check(name, cond, detail) {
  n++;
  if (cond) {
    console.log(`ok ${n} - t_site_validators: ${siteName}: ${name}`);
  } else {
    failed++;
    console.log(`not ok ${n} - t_site_validators: ${siteName}: ${name}`);
    if (detail) console.log('#   ' + String(detail).split('\n').join('\n#   '));
  }
}

// The page kinds, by path relative to the site; a page no pattern
// matches is of kind "other" (a page family added after this test).
const KINDS = [
  ['index', /^index\.html$/],
  ['projects', /^projects\/index(\.[a-z0-9.-]+)?\.html$/],
  ['project', /^projects\/[^/]+\/index\.html$/],
  ['decisions', /^projects\/[^/]+\/decisions\.html$/],
  ['subsystem', /^projects\/[^/]+\/subsystems\.html$/],
  ['conflict', /^conflicts\/(?!index\.html$)[^/]+\.html$/],
  ['queue', /^conflicts\/index\.html$/],
  ['check', /^checks\/(projects|rules)\/[^/]+\.html$/],
  ['checks', /^checks\/index\.html$/],
  ['404', /^404\.html$/],
  ['A–Z', /^keys\/[^/]+\.html$/],
  ['changes', /^changes\.html$/],
];
const kindOf = (rel) => (KINDS.find(([, re]) => re.test(rel)) || ['other'])[0];
const WIDTHS = [390, 1280];
const SCHEMES = ['light', 'dark'];

function htmlPages(dir, rel = '') {
  const out = [];
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...htmlPages(dir, r));
    else if (e.isFile() && e.name.endsWith('.html')) out.push(r);
  }
  return out.sort();
}

// axe.min.js must have been added to the page.
async function axeRun(page) {
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help,
      targets: v.nodes.slice(0, 3).map((x) => x.target.join(' ')),
      count: v.nodes.length,
    }));
  });
}

const findings = (list) => list.slice(0, 12).map((f) =>
  `${f.page}: ${f.id} (${f.impact}) ${f.help}: ${f.targets.join(', ')}` +
  (f.count > f.targets.length ? ` and ${f.count - f.targets.length} more` : '')
).join('\n') + (list.length > 12 ? `\n... ${list.length - 12} more` : '');

(async () => {
  fs.mkdirSync(shotDir, { recursive: true });
  const pages = htmlPages(site);
  const byKind = new Map([...KINDS.map(([k]) => [k, []]), ['other', []]]);
  for (const p of pages) byKind.get(kindOf(p)).push(p);
  // Screenshots show the largest page of each kind (the most to look at).
  const bytes = (p) => fs.statSync(path.join(site, p)).size;
  for (const [kind, list] of byKind) {
    list.sort((a, b) => bytes(b) - bytes(a) || (a < b ? -1 : 1));
    byKind.set(kind, list.slice(0, perKind));
  }

  const b = await launch({ viewport: { width: 1280, height: 900 } });
  try {
    const page = b.context.pages()[0] || await b.context.newPage();
    const offsite = [];
    page.on('request', (r) => {
      if (!r.url().startsWith('file://') && !r.url().startsWith('data:')) offsite.push(r.url());
    });
    const axe = new Map();     // kind/scheme/width -> findings
    const wide = new Map();    // kind/width -> pages that scroll sideways
    const bg = {};             // the body's background per scheme, index page
    // Each page is loaded once, axe added once; the views follow by
    // resizing and emulating (the layout and styles follow at once).
    const VIEWS = [[1280, 'light'], [1280, 'dark'], [390, 'light']];
    for (const [kind, list] of byKind) {
      for (const v of VIEWS) axe.set(`${kind}/${v[1]}/${v[0]}`, []);
      for (const w of WIDTHS) wide.set(`${kind}/${w}`, []);
      for (const [i, rel] of list.entries()) {
        await page.setViewportSize({ width: VIEWS[0][0], height: 900 });
        await page.emulateMedia({ colorScheme: VIEWS[0][1] });
        await page.goto('file://' + path.join(site, rel));
        await page.addScriptTag({ path: axeSource });
        for (const [w, scheme] of VIEWS) {
          await page.setViewportSize({ width: w, height: 900 });
          await page.emulateMedia({ colorScheme: scheme });
          if (scheme === 'light') {
            const m = await page.evaluate(() => [
              document.documentElement.scrollWidth, window.innerWidth]);
            if (m[0] > m[1]) wide.get(`${kind}/${w}`).push(`${rel}: scrollWidth ${m[0]} > ${m[1]}`);
          }
          if (kind === 'index' && w === 1280) {
            bg[scheme] = await page.evaluate(() =>
              getComputedStyle(document.body).backgroundColor);
          }
          if (i === 0) {
            const name = `${kind}-${w}${scheme === 'dark' ? '-dark' : ''}.png`;
            await page.screenshot({ path: path.join(shotDir, name) });
          }
          for (const f of await axeRun(page)) {
            axe.get(`${kind}/${scheme}/${w}`).push({ page: rel, ...f });
          }
        }
      }
    }
    for (const [kind, list] of byKind) {
      const what = kind === 'other' ? 'pages of any other kind' : `${kind} pages`;
      for (const [w, scheme] of VIEWS) {
        const f = axe.get(`${kind}/${scheme}/${w}`) || [];
        check(`axe-core: no violation on the ${what} (${list.length}), ${scheme} mode, ${w} px`,
          f.length === 0, findings(f));
      }
      for (const w of WIDTHS) {
        const over = wide.get(`${kind}/${w}`);
        check(`no horizontal scroll on the ${what} (${list.length}) at ${w} px`,
          over.length === 0, over.slice(0, 10).join('\n'));
      }
    }
    const missing = KINDS.map(([k]) => k).filter((k) => byKind.get(k).length === 0);
    check(`the site has a page of every known kind (${KINDS.length})`,
      missing.length === 0, `none of: ${missing.join(', ')}`);
    check('dark mode is in effect (the index\'s background differs)',
      bg.light && bg.dark && bg.light !== bg.dark, `light ${bg.light}, dark ${bg.dark}`);
    check('no page requested anything from another host', offsite.length === 0,
      offsite.slice(0, 5).join('\n'));
    // The checks can fail: a page with an image without text, text
    // without contrast, and a line wider than a phone.
    const bad = path.join(shotDir, 'broken.html');
    fs.writeFileSync(bad, '<!DOCTYPE html><html lang="en"><head><title>x</title>' +
      '<meta name="viewport" content="width=device-width"></head><body><main>' +
      '<h1>x</h1><img src="data:,"><p style="color:#eee;background:#fff">faint</p>' +
      '<div style="width:600px">wide</div></main></body></html>\n');
    await page.setViewportSize({ width: 390, height: 900 });
    await page.goto('file://' + bad);
    await page.addScriptTag({ path: axeSource });
    const ids = (await axeRun(page)).map((v) => v.id).sort();
    const sw = await page.evaluate(() =>
      document.documentElement.scrollWidth > window.innerWidth);
    check('the checks fail a broken page (image-alt, color-contrast, sideways scroll)',
      ids.includes('image-alt') && ids.includes('color-contrast') && sw,
      `axe: ${ids.join(', ')}; scrolls sideways: ${sw}`);
    fs.rmSync(bad);
  } finally {
    await b.close();
  }
  process.exit(failed ? 1 : 0);
})().catch((e) => {
  console.log(`not ok ${n + 1} - t_site_validators: ${siteName}: the browser run failed`);
  console.log(`#   ${String(e && e.stack || e).split('\n').join('\n#   ')}`);
  process.exit(1);
});
