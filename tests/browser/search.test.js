// search.test.js: the search page of a built site, in Debian chromium, over
// HTTP (a static server of node's own) and from file://: a fact by key, by
// a word of its value, by id and by source, a conflict by either side's
// value, a check by its message, the ranking (issue 69: a fact's key, a
// value, a project's name, a typo, a plural, each with its first result),
// the query's words marked, no id in a result's text, the filters and
// their counts, the marker, the link to the fact's anchor, the bytes a
// query loads, and (on the example) every page's header search box and
// the "/" key.
//   node search.test.js SITE [QUERIES.json]
// QUERIES.json (optional) replaces the example's cases: a list of
// { "name", "q", and "id" (a result's id that must be listed; "first":
// listed first) or "title", "kind", "value" (a result must start with
// title, be of kind, show value), or "ids" (the results start with these
// ids, in order) or "top" ({ "title", "kind", "value", "project", "exact" }:
// the first result starts with title (is titled title, when exact), is of
// kind, shows value, is of project),
// "fixed" (the count says "Showing results for" the word taken for the
// query's), "filters" ({ "layer": "state" }) }; the byte budget and the
// filters are checked on every site.
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
  // Ranked (issue 69): the title (key, name) above a mention in the value
  // or a source; a project's name; a typo and a plural that find nothing
  // as typed.
  { name: 'ranked: a fact\'s key above a check that mentions it', q: 'spindle bearings', id: 'p06-st-spindle-bearings', first: true },
  { name: 'ranked: a value, the facts that hold it before one that does not', q: 'GF-PTFE',
    ids: ['c1da3c4868f', 'p05-st-lateral-support-material'] },
  { name: 'ranked: a project\'s name, its own page first', q: 'P05 Interferometer', id: 'p05-interferometer', first: true },
  { name: 'a typo: "spindel" finds the spindle conflict first', q: 'spindel', id: 'cdbabf1c8eb', first: true, fixed: true },
  { name: 'a plural: "spindles" finds the spindle conflict first', q: 'spindles', id: 'cdbabf1c8eb', first: true, fixed: true },
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
      id: ((li.querySelector('a').title || '').match(/^id (\S+)$/) || [])[1],
      href: li.querySelector('a').getAttribute('href'),
      title: li.querySelector('a').textContent,
      marks: [...li.querySelectorAll('mark')].map((m) => m.textContent),
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
    const like = (x, t) => (t.exact ? x.title === t.title : x.text.startsWith(t.title || '')) &&
      (!t.kind || x.meta.includes(` \u00b7 ${t.kind} \u00b7 `) || x.meta.endsWith(` \u00b7 ${t.kind}`)) &&
      (!t.value || x.text.includes(t.value)) && (!t.project || x.meta.startsWith(`${t.project} \u00b7 `));
    const found = (c.ids ? c.ids.every((id, i) => ids[i] === id) :
      c.top ? r.results.length > 0 && like(r.results[0], c.top) :
      c.id ? (c.first ? ids[0] === c.id : ids.includes(c.id)) :
      r.results.some((x) => like(x, c))) &&
      (!c.fixed || /^Showing results for /.test(r.count));
    check(`${label}: ${c.name} ("${c.q}")`, found,
      `${r.count}\n${r.results.map((x) => `${x.id}: ${x.text}`).join('\n')}`);
    if (label === 'http') {
      check(`http: "${c.q}" loads ${r.bytes} bytes, at most ${BUDGET}`, r.bytes > 0 && r.bytes <= BUDGET,
        r.files.join('\n'));
    }
  }
  const q = cases[0].q.split(/[_\s-]/)[0];
  const all = await query(page, base, q);
  // The project facet counts every match loaded, not the 8 shown.
  const fc = await page.evaluate(() => ({
    opts: [...document.querySelectorAll('#search-project option')].slice(1).map((o) => o.textContent),
    loaded: (document.getElementById('search-count').textContent.match(/count the (\d+) loaded/) || [])[1],
  }));
  const st = await query(page, base, q, { layer: 'state' });
  check(`${label}: the layer filter keeps state facts only`, st.results.length > 0 &&
    st.results.every((x) => / · state · /.test(x.meta)), st.results.map((x) => x.meta).join('\n'));
  const d = await query(page, base, q, { disputed: '1' });
  check(`${label}: the disputed filter keeps disputed results, each marked`,
    d.results.length > 0 && d.results.every((x) => x.text.includes('\u26a0 disputed')),
    d.results.map((x) => x.text).join('\n'));
  check(`${label}: the count is announced in a live region`, /result/.test(all.count), all.count);
  // The query's words marked in the first result's title, and no result
  // says its id in its text (it is the link's title).
  const w = [q.toLowerCase()];
  check(`${label}: "${q}": the first result's title marks the query's word`,
    all.results.length > 0 && w.some((x) => all.results[0].marks.some((m) => m.toLowerCase() === x)),
    all.results[0] && `${all.results[0].title} marks ${JSON.stringify(all.results[0].marks)}`);
  check(`${label}: no result shows its id in its text; each link's title names it`,
    all.results.length > 0 && all.results.every((x) => x.id && !x.text.includes(x.id)),
    all.results.map((x) => `${x.id}: ${x.text}`).join('\n'));
  const counted = fc.opts.reduce((t, o) => t + Number((o.match(/\((\d+)\)$/) || [0, NaN])[1]), 0);
  const total = Number((all.count.match(/^(?:Showing[^.]*\. )?(\d+) results/) || [])[1]);
  check(`${label}: "${q}": the project menu counts every match loaded (${counted}), not the ${all.results.length} shown`,
    counted > all.results.length && counted === (fc.loaded ? Number(fc.loaded) : total),
    `${all.count} | ${fc.opts.join(' | ')}`);
}

// Every page's header holds a search box (the search page's own aside): a
// plain GET form to search/index.html, so a query typed on a project's
// page opens the search page with ?q= and its results, and without
// JavaScript still opens the search page; "/" focuses it, but not while
// the reader types in a field.
async function headerBox(page, base, label) {
  const from = `${base}projects/p06-polisher/index.html`;
  await page.goto(from);
  await page.keyboard.press('/');
  const focused = await page.evaluate(() => document.activeElement && document.activeElement.id);
  check(`${label}: "/" on a project's page focuses the header's search box`, focused === 'site-q', focused);
  await page.keyboard.type('spindel');
  await page.keyboard.press('/');
  const typed = await page.inputValue('#site-q');
  check(`${label}: "/" typed in the box is a character, not a jump`, typed === 'spindel/', typed);
  await page.fill('#site-q', 'spindel');
  await Promise.all([page.waitForURL(/search\/index\.html\?q=spindel$/), page.press('#site-q', 'Enter')]);
  await page.waitForFunction(() => document.getElementById('search-count').textContent !== '', null, { timeout: 20000 });
  const r = await page.evaluate(() => ({
    url: location.href,
    first: ((document.querySelector('#search-results li a') || {}).title || ''),
    header: !!document.getElementById('site-q'),
  }));
  check(`${label}: the header's box submits to the search page, which shows the results`,
    r.url === `${base}search/index.html?q=spindel` && r.first === 'id cdbabf1c8eb', JSON.stringify(r));
  check(`${label}: the search page has its own box and no second one in the header`, !r.header);
  await page.goto(`${base}search/index.html`);
  await page.waitForSelector('#search-form:not([hidden])');
  await page.keyboard.press('/');
  const own = await page.evaluate(() => document.activeElement && document.activeElement.id);
  check(`${label}: "/" on the search page focuses its own box`, own === 'search-q', own);
}

// The header's box without JavaScript: a plain form that opens the search
// page with the query, whose text points to the A-Z index.
async function headerNoScript(base) {
  const b = await launch({ javaScriptEnabled: false });
  try {
    const page = await b.context.newPage();
    await page.goto(`${base}conflicts/index.html`);
    await page.fill('#site-q', 'spindle');
    await Promise.all([page.waitForURL(/search\/index\.html\?q=spindle$/), page.press('#site-q', 'Enter')]);
    const az = await page.evaluate(() => !!document.querySelector('main a[href="../keys/index.html"]'));
    check('without JavaScript the header\'s box opens the search page (?q=spindle), which points to the A-Z index', az);
  } finally {
    await b.close();
  }
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

// Each kind of record links where its page is (doc/site.md, "Search":
// "a result links to its row, conflict, check or project page"): a fact
// of each layer (one of no project, on the index), a conflict, a check
// and a project's own page, by id. Its link (made by search.js from the
// manifest's URL templates, or as the record holds it) must be the page
// and anchor the site made, and that page must hold the anchor.
const linkCases = [
  ['a state fact', 'p06-st-spindle-max', 'projects/p06-polisher/index.html#state-p06-st-spindle-max'],
  ['an entity', 'p04-sys-board', 'projects/p04-gigabit/index.html#entity-p04-sys-board'],
  ['a memory of no project', 'mem-identity-background', 'index.html#memory-mem-identity-background'],
  ['a conflict', 'c07bafd6f4e', 'conflicts/c07bafd6f4e.html'],
  ['a check', 'chk-f3249697b085', 'checks/projects/p06-polisher.html#chk-f3249697b085'],
  ['a project\'s own page', 'p05-interferometer', 'projects/p05-interferometer/index.html'],
];
async function links(page, base) {
  for (const [what, id, want] of linkCases) {
    const r = await query(page, base, id);
    const hit = r.results.find((x) => x.id === id);
    const got = hit ? new URL(hit.href, `${base}search/index.html`).href : '(no result)';
    const ok = got === new URL(want, base).href;
    let there = false;
    if (ok) {
      const res = await page.goto(got);
      there = res.ok() && await page.evaluate(() => !location.hash ||
        !!document.getElementById(decodeURIComponent(location.hash.slice(1))));
    }
    check(`a result of ${what} links to its page and anchor (${want})`, ok && there,
      `got ${got}${ok && !there ? ' (no such page or anchor)' : ''}`);
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
      await links(page, base);
      await headerBox(page, base, 'http');
      await headerBox(page, `file://${site}/`, 'file');
      await headerNoScript(base);
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
