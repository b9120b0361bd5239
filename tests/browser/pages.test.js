// pages.test.js NAME SITE [NAME SITE...] [--first N]
//
// Every page kind of each built site (opened from file://) in Debian's
// chromium at 1280 and 390 px: one TAP line per case ("ok N -
// t_site_pages: ..."), numbered on from N (0 unless told), as
// tests/run.sh counts them. The promises of doc/site.md, "Pages that
// hold at any size" (issue 69, item 6; issue 70, item 4):
//
//  - no file of the site is over 1 MB;
//  - every kind of page is there (a kind the site no longer makes must
//    leave this list, not be skipped in silence);
//  - the largest page of each kind, at 1280 and at 390 px: nothing
//    scrolls sideways, and no date, number, id or value is cut across
//    lines at a hyphen, wherever it stands: running text, a heading, a
//    table cell, a code span, a command block (see findings);
//  - the pages whose size must not grow with the store (the home page,
//    the lists that page) are at most HEIGHT_MAX px tall at either
//    width.
'use strict';
const fs = require('fs');
const path = require('path');
const { launch } = require('./chromium');

const FILE_MAX = 1 << 20;
// A bounded page at 390 px: the home page of the 40,000-fact store is
// about 5,000 px; a paged list of 300 cards about 60,000. A list that
// stopped paging would be many times this at 200 projects.
const HEIGHT_MAX = 80000;

const args = process.argv.slice(2);
let n = 0;
const fi = args.indexOf('--first');
if (fi >= 0) {
  n = Number(args[fi + 1]);
  args.splice(fi, 2);
}
const sites = [];
for (let i = 0; i + 1 < args.length; i += 2)
  sites.push({ name: args[i], dir: path.resolve(args[i + 1]) });
let failed = 0;
function check(name, cond, detail) {
  n++;
  if (cond) {
    console.log(`ok ${n} - t_site_pages: ${name}`);
  } else {
    failed++;
    console.log(`not ok ${n} - t_site_pages: ${name}`);
    if (detail !== undefined) console.log(`#   ${detail}`);
  }
}

// The kinds of page, each a name, a pattern of its files (relative to
// the site) and whether its size must stay bounded whatever the store.
const KINDS = [
  ['home', /^index\.html$/, true],
  ['not found', /^404\.html$/, true],
  ['projects list', /^projects\/index(\.[a-z0-9.-]+)?\.html$/, true],
  ['project overview', /^projects\/[^/]+\/index\.html$/, false],
  ['decision log', /^projects\/[^/]+\/decisions\.html$/, false],
  ['subsystems', /^projects\/[^/]+\/subsystems\.html$/, false],
  ['review queue', /^conflicts\/index\.html$/, true],
  ['open conflicts across projects', /^conflicts\/index\.open(\.page-\d+)?\.html$/, true],
  ['project review queue', /^conflicts\/projects\/[^/]+\.html$/, false],
  ['conflict page', /^conflicts\/(?!index)[^/]+\.html$/, false],
  ['checks index', /^checks\/index\.html$/, true],
  ['open checks', /^checks\/index\.open(\.page-\d+)?\.html$/, true],
  ['project checks', /^checks\/projects\/[^/]+\.html$/, false],
  ['rule page', /^checks\/rules\/[^/]+\.html$/, false],
  ['changes', /^changes\.html$/, true],
  ['A-Z', /^keys\/index\.html$/, true],
  ['A-Z letter', /^keys\/(?!index)[^/]+\.html$/, true],
  ['search', /^search\/index\.html$/, true],
];

// Every file of dir, relative to it, with its size.
function files(dir) {
  const out = [];
  const walk = (rel) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else out.push([r, fs.statSync(path.join(dir, r)).size]);
    }
  };
  walk('');
  return out;
}

// In the page: the words cut across lines at a hyphen, whether it
// scrolls sideways, and its height. A word is a run between white
// space, its enclosing punctuation left out; it is looked at when it
// holds a hyphen between two letters or digits (or starts with "--", a
// flag) and is a date, a number (with its unit), an id or a value: it
// holds a digit ("2025-11-04", "1e-12", "p04-dec-refclk-156"), starts
// with "--", has no lower-case letter ("GF-PTFE"), or stands in code, a
// table cell or a heading. A word wider than its line may wrap. Each
// cut fails the page, named with where it stands: a command block, a
// code span, a date or number column (its header names a date, two
// ("Created · updated") or a count, as gen/render/tablekinds.c reads
// them), another column, a heading or running text (doc/site.md,
// "Pages that hold at any size"; gen/render/markdown.h, (i)).
function findings() {
  const cut = [];
  const hy = /[\p{L}\p{N}][-\u2010][\p{L}\p{N}]/u;
  const oneLine = /Updated|updated|Detected|Opened|Created|Closed|Date|Since|Latest change|Confidence|Hits/;
  const root = document.body;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const el = t.parentElement;
    if (el.closest('head, script, style, svg, thead, .visually-hidden, [hidden]'))
      continue;
    for (const m of t.data.matchAll(/\S+/g)) {
      const lead = m[0].match(/^[("'\[\u201c\u2018]*/)[0].length;
      const w = m[0].slice(lead).replace(/[)"'\]\u201d\u2019,;:.!?]+$/, '');
      if (!hy.test(w) && !/^--\p{L}/u.test(w)) continue;
      const must = /\p{N}/u.test(w) || /^--/.test(w) || !/\p{Ll}/u.test(w) ||
        el.closest('code, td, th, h1, h2, h3, h4') !== null;
      if (!must) continue;
      const r = document.createRange();
      r.setStart(t, m.index + lead);
      r.setEnd(t, m.index + lead + w.length);
      const rects = [...r.getClientRects()].filter((x) => x.width > 0);
      const tops = new Set(rects.map((x) => Math.round(x.top)));
      if (tops.size < 2) continue;
      const box = el.closest('td, th, li, p, dd, dt, h1, h2, h3, h4, pre, ' +
        'figcaption, div, main') || root;
      const s = getComputedStyle(box);
      const line = box.getBoundingClientRect().width -
        parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
      const width = rects.reduce((a, x) => a + x.width, 0);
      if (width > line) continue;
      const td = el.closest('td');
      const th = td && td.closest('table').querySelectorAll('thead th')[td.cellIndex];
      const where = el.closest('pre') ? 'command block' :
        el.closest('code') ? 'code' :
        td && th && td.cellIndex > 0 && oneLine.test(th.textContent) ? 'column' :
        el.closest('td, th') ? 'other column' :
        el.closest('h1, h2, h3, h4') ? 'heading' : 'running text';
      cut.push(`${w} (${where})`);
    }
  }
  const s = document.scrollingElement;
  return { cut, scroll: [s.scrollWidth, s.clientWidth],
    height: s.scrollHeight };
}

async function site(browser, name, dir) {
  const all = files(dir);
  const big = all.filter(([, size]) => size > FILE_MAX);
  check(`${name}: no file of the site is over 1 MB (${all.length} files)`,
    big.length === 0, big.slice(0, 5).map(([r, s]) => `${r} ${s}`).join(', '));
  const html = all.filter(([r]) => r.endsWith('.html'))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const found = KINDS.map(([, re]) => html.find(([r]) => re.test(r)));
  check(`${name}: every kind of page is there`, found.every((f) => f),
    KINDS.filter((k, i) => !found[i]).map((k) => k[0]).join(', '));
  const page = await browser.newPage();
  let cuts = 0;
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (let i = 0; i < KINDS.length; i++) {
      if (!found[i]) continue;
      const [kind, , bounded] = KINDS[i];
      const rel = found[i][0];
      await page.goto('file://' + path.join(dir, rel));
      const f = await page.evaluate(findings);
      cuts += f.cut.length;
      check(`${name} ${rel} (${kind}) at ${width} px: no date, number, id or value cut at a hyphen`,
        f.cut.length === 0, `${f.cut.length} cut: ${f.cut.slice(0, 8).join(' | ')}`);
      check(`${name} ${rel} (${kind}) at ${width} px: nothing scrolls sideways`,
        f.scroll[0] <= f.scroll[1], `scrollWidth ${f.scroll[0]} > ${f.scroll[1]}`);
      if (bounded)
        check(`${name} ${rel} (${kind}) at ${width} px: at most ${HEIGHT_MAX} px tall`,
          f.height <= HEIGHT_MAX, `${f.height} px`);
    }
  }
  console.log(`# ${name}: ${cuts} words cut at a hyphen`);
  await page.close();
}

(async () => {
  const { context, close } = await launch();
  try {
    for (const s of sites) await site(context, s.name, s.dir);
  } finally {
    await close();
  }
  process.exit(failed ? 1 : 0);
})().catch((e) => {
  console.log(`not ok ${n + 1} - t_site_pages: the browser run failed`);
  console.log(`#   ${String(e && e.stack || e).split('\n').join('\n#   ')}`);
  process.exit(1);
});
