// search.test.js: the search page of a built site, in Debian chromium, over
// HTTP (a static server of node's own) and from file://: a fact by key, by
// a word of its value, by id and by source, a conflict by either side's
// value, a check by its message, the filters, the marker, the link to the
// fact's anchor, and the bytes a query loads.
//   node search.test.js SITE [QUERIES.json]
// QUERIES.json (optional) replaces the example's cases: a list of
// { "name", "q", and "id" (a result's id that must be listed; "first":
// listed first) or "title", "kind", "value" (a result must start with
// title, be of kind, show value), "filters" ({ "layer": "state" }) }; the byte budget and the filters are
// checked on every site.
//   MIRROR_SEARCH_BASE=URL node search.test.js SITE
// runs the example's queries and filters on the site served at URL
// (mirror serve, whose SITE is the example store's) instead: over its
// HTTP, whose Content-Type and nosniff decide whether the scripts run.
'use strict';
const fs = require('fs');
const http = require('http');
const path = require('path');
const { launch } = require('./chromium');

const site = path.resolve(process.argv[2]);
const BUDGET = 300 * 1000;
let n = 0;
let failed = 0;

function check(name, cond, detail) {
  n++;
  if (cond) console.log(`ok ${n} - ${name}`);
  else {
    failed++;
    console.log(`not ok ${n} - ${name}`);
    if (detail) console.log(`#   ${String(detail).split('\n').join('\n#   ')}`);
  }
}

const exampleCases = [
  { name: 'a fact by its key', q: 'spindle_max_speed', id: 'p06-st-spindle-max' },
  { name: 'a fact by a word of its value', q: 'ceramic', id: 'p06-st-spindle-bearings' },
  { name: 'a fact by its id', q: 'p06-st-spindle-max', id: 'p06-st-spindle-max', first: true },
  { name: 'a fact by its source', q: 'service report', id: 'p06-st-spindle-bearings' },
  { name: 'a conflict by one side\'s value', q: 'dead weight', id: 'c07bafd6f4e' },
  { name: 'a conflict by the other side\'s value', q: 'pneumatic bellows', id: 'c07bafd6f4e' },
  { name: 'a check by its message', q: 'removal uniformity', id: 'chk-f3249697b085' },
];
const cases = process.argv[3] ? JSON.parse(fs.readFileSync(process.argv[3], 'utf8')) : exampleCases;

// A static server of the site on a free port; resolves to its base URL.
function serve(dir) {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.md': 'text/markdown' };
  const srv = http.createServer((req, res) => {
    const p = path.join(dir, decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (!p.startsWith(dir) || !fs.existsSync(p) || !fs.statSync(p).isFile()) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, { 'Content-Type': types[path.extname(p)] || 'application/octet-stream' });
    res.end(fs.readFileSync(p));
  });
  return new Promise((ok) => srv.listen(0, '127.0.0.1', () => ok({ srv, base: `http://127.0.0.1:${srv.address().port}/` })));
}

// Open the search page at base with query q (and filters), wait for the
// count; returns { count, results: [{ id, href, text }], bytes }.
async function query(page, base, q, filters = {}) {
  await page.goto(`${base}search/index.html`);
  await page.waitForSelector('#search-form:not([hidden])');
  for (const [k, v] of Object.entries(filters)) {
    await page.evaluate(([sel, val]) => {
      const s = document.getElementById(sel);
      if (![...s.options].some((o) => o.value === val)) {
        const o = document.createElement('option');
        o.value = val;
        o.textContent = val;
        s.appendChild(o);
      }
      s.value = val;
    }, [`search-${k}`, v]);
  }
  await page.fill('#search-q', q);
  await page.press('#search-q', 'Enter');
  await page.waitForFunction(() => document.getElementById('search-count').textContent !== '', null, { timeout: 20000 });
  return page.evaluate(() => ({
    count: document.getElementById('search-count').textContent,
    results: [...document.querySelectorAll('#search-results li')].map((li) => ({
      id: (li.querySelector('.search-meta').textContent.match(/id (\S+)$/) || [])[1],
      href: li.querySelector('a').getAttribute('href'),
      meta: li.querySelector('.search-meta').textContent,
      text: li.textContent,
    })),
    bytes: performance.getEntriesByType('resource').reduce((s, e) => s + (e.encodedBodySize || 0), 0) +
      (performance.getEntriesByType('navigation')[0] || {}).encodedBodySize || 0,
    files: performance.getEntriesByType('resource').map((e) => e.name),
  }));
}

async function mode(page, label, base) {
  for (const c of cases) {
    const r = await query(page, base, c.q, c.filters || {});
    const ids = r.results.map((x) => x.id);
    const found = c.id ? (c.first ? ids[0] === c.id : ids.includes(c.id)) :
      r.results.some((x) => x.text.startsWith(c.title || '') &&
        (!c.kind || x.meta.includes(` \u00b7 ${c.kind} \u00b7 `)) &&
        (!c.value || x.text.includes(c.value)));
    check(`${label}: ${c.name} ("${c.q}")`, found,
      `${r.count} ${r.results.map((x) => x.text).join('\n')}`);
    if (label === 'http') {
      check(`http: "${c.q}" loads ${r.bytes} bytes, at most ${BUDGET}`, r.bytes > 0 && r.bytes <= BUDGET,
        r.files.join('\n'));
    }
  }
  const q = cases[0].q.split(/[_\s-]/)[0];
  const all = await query(page, base, q);
  const st = await query(page, base, q, { layer: 'state' });
  check(`${label}: the layer filter keeps state facts only`, st.results.length > 0 &&
    st.results.every((x) => / · state · /.test(x.meta)), st.results.map((x) => x.meta).join('\n'));
  const d = await query(page, base, q, { disputed: '1' });
  check(`${label}: the disputed filter keeps disputed results, each marked`,
    d.results.length > 0 && d.results.every((x) => x.text.includes('\u26a0 disputed')),
    d.results.map((x) => x.text).join('\n'));
  check(`${label}: the count is announced in a live region`, /result/.test(all.count), all.count);
}

// axe-core on the page with results shown, light and dark, 1280 and 390 px,
// and nothing scrolls sideways.
async function axeViews(page, base, q) {
  const axeSource = path.join(__dirname, 'node_modules/axe-core/axe.min.js');
  for (const scheme of ['light', 'dark']) {
    for (const w of [1280, 390]) {
      await page.setViewportSize({ width: w, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await query(page, base, q);
      await page.addScriptTag({ path: axeSource });
      const r = await page.evaluate(async () => {
        const a = await window.axe.run(document, { resultTypes: ['violations'] });
        return {
          v: a.violations.map((x) => `${x.id}: ${x.nodes.slice(0, 3).map((nd) => nd.target.join(' ')).join(', ')}`),
          wide: document.documentElement.scrollWidth > window.innerWidth,
        };
      });
      check(`axe-core: no violation on the search page with results, ${scheme} mode, ${w} px, nothing scrolls sideways`,
        r.v.length === 0 && !r.wide, r.v.join('\n') + (r.wide ? '\nscrolls sideways' : ''));
    }
  }
}

// The queries on the site served at base (by mirror serve), only.
async function served(base) {
  const b = await launch();
  try {
    const page = await b.context.newPage();
    const refused = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && /Refused|MIME type/.test(m.text())) refused.push(m.text());
    });
    await mode(page, 'serve', base);
    check('serve: the console shows no script refused for its MIME type',
      refused.length === 0, refused.join('\n'));
  } finally {
    await b.close();
  }
  process.exit(failed ? 1 : 0);
}

(async () => {
  if (process.env.MIRROR_SEARCH_BASE) return served(process.env.MIRROR_SEARCH_BASE);
  const { srv, base } = await serve(site);
  const b = await launch();
  try {
    const page = await b.context.newPage();
    await mode(page, 'http', base);
    await mode(page, 'file', `file://${site}/`);
    if (cases === exampleCases) {
      const r = await query(page, base, 'spindle_max_speed');
      const hit = r.results.find((x) => x.id === 'p06-st-spindle-max');
      check('a disputed fact shows its value and the marker', hit && /300 rpm/.test(hit.text) && hit.text.includes('\u26a0 disputed'),
        hit && hit.text);
      await page.goto(new URL(hit.href, `${base}search/index.html`).href);
      const there = await page.evaluate(() => !!document.getElementById(location.hash.slice(1)));
      check('a result links to the fact\'s anchor on its page', there, hit.href);
    }
    await axeViews(page, base, cases[0].q);
  } finally {
    await b.close();
    srv.close();
  }
  process.exit(failed ? 1 : 0);
})().catch((e) => {
  console.log(`not ok ${n + 1} - the search run ends cleanly`);
  console.log(`#   ${String(e && e.stack || e).split('\n').join('\n#   ')}`);
  process.exit(1);
});
