// search_facets.test.js: the search page's filter menus count over every
// match of a query, not over the results loaded (issue 69, item 4), on a
// generated store, in Debian chromium over HTTP.
//   node search_facets.test.js SITE EXPECT.json
// EXPECT.json: { "q": the query, "total": its matches in the store,
// "projects": { project name: its matches }, "layers": { layer: its
// matches } }, counted with sqlite3 by tests/e2e/t_search_facets.sh.
// Checks: the query alone loads at most 300 kB and its menus first count
// fewer than every match (the chunks of the first batch); once the reader
// opens the project menu it counts every match: each project's count and
// each layer's is the store's, and they add up to the total; choosing a
// project none of whose matches was loaded before shows its matches, all
// of them, and says how many pass; so does one chosen before the query;
// but a word too common to list whole with a filter set before the query
// goes batch by batch, within the query's 300 kB.
'use strict';
const fs = require('fs');
const http = require('http');
const path = require('path');
const { launch } = require('./chromium');

const site = path.resolve(process.argv[2]);
const want = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'));
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

// A static server of the site on a free port; resolves to its base URL.
function serve(dir) {
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
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

// The page's count line, its results' meta lines and each menu's options
// as { value: count }, and the bytes loaded so far.
function state(page) {
  return page.evaluate(() => {
    const menu = (id) => {
      const o = {};
      [...document.getElementById(id).options].slice(1).forEach((x) => {
        o[x.value] = Number((x.textContent.match(/\((\d+)\)$/) || [])[1]);
      });
      return o;
    };
    return {
      count: document.getElementById('search-count').textContent,
      metas: [...document.querySelectorAll('#search-results li .search-meta')].map((m) => m.textContent),
      project: menu('search-project'),
      layer: menu('search-layer'),
      bytes: performance.getEntriesByType('resource').reduce((s, e) => s + (e.encodedBodySize || 0), 0) +
        ((performance.getEntriesByType('navigation')[0] || {}).encodedBodySize || 0),
    };
  });
}

const sum = (o) => Object.values(o).reduce((t, v) => t + v, 0);
const diff = (got, exp) => Object.keys(exp).filter((k) => got[k] !== exp[k])
  .concat(Object.keys(got).filter((k) => !(k in exp) && got[k] !== 0))
  .slice(0, 8).map((k) => `${k}: shown ${got[k]}, store ${exp[k]}`).join('\n');

(async () => {
  const { srv, base } = await serve(site);
  const b = await launch();
  try {
    const page = await b.context.newPage();
    await page.goto(`${base}search/index.html`);
    await page.waitForSelector('#search-form:not([hidden])');
    await page.fill('#search-q', want.q);
    await page.press('#search-q', 'Enter');
    await page.waitForFunction(() => document.getElementById('search-count').textContent !== '', null, { timeout: 20000 });
    const first = await state(page);
    check(`"${want.q}": ${want.total} results, as many as the store's documents that hold the word`,
      first.count.startsWith(`${want.total} results`), first.count);
    check(`"${want.q}": the query loads ${first.bytes} bytes, at most ${BUDGET}`,
      first.bytes > 0 && first.bytes <= BUDGET);
    check(`"${want.q}": before a menu is opened the menus count the matches loaded (${sum(first.project)}), and say so`,
      sum(first.project) < want.total && /the filters count the \d+ loaded/.test(first.count), first.count);

    // Opening the project menu counts every match.
    await page.focus('#search-project');
    await page.waitForFunction(() => !/loaded/.test(document.getElementById('search-count').textContent),
      null, { timeout: 30000 }).catch(() => {});
    const all = await state(page);
    check(`the project menu counts every match: ${Object.keys(want.projects).length} projects, each with the store's count`,
      diff(all.project, want.projects) === '', diff(all.project, want.projects));
    check(`the project menu's counts add up to the ${want.total} results`, sum(all.project) === want.total,
      `${sum(all.project)}`);
    check('the layer menu counts every match, each layer the store\'s count',
      diff(all.layer, want.layers) === '', diff(all.layer, want.layers));

    // A project none of whose matches was loaded before: choosing it shows
    // them, every one.
    const pick = Object.keys(want.projects).find((p) => !(first.project[p] > 0) && want.projects[p] > 1);
    check('a project with matches was not among those the first batch loaded', !!pick);
    if (!pick) throw new Error('no project to choose');
    await page.selectOption('#search-project', pick);
    await page.waitForFunction((p) => /pass the filters/.test(document.getElementById('search-count').textContent) &&
      document.querySelectorAll('#search-results li').length > 0, pick, { timeout: 20000 }).catch(() => {});
    const chosen = await state(page);
    check(`choosing "${pick}" shows its ${want.projects[pick]} matches, of that project only`,
      chosen.metas.length === want.projects[pick] && chosen.metas.every((m) => m.startsWith(`${pick} \u00b7 `)),
      `${chosen.count}\n${chosen.metas.join('\n')}`);
    check(`the count says ${want.projects[pick]} pass the filters`,
      chosen.count.includes(`; ${want.projects[pick]} pass the filters, ${want.projects[pick]} shown`), chosen.count);

    // A project set before the query runs (no menu opened: a link, a
    // reload) reaches every match too.
    const other = Object.keys(want.projects).find((p) => p !== pick && !(first.project[p] > 0) && want.projects[p] > 2);
    await page.goto(`${base}search/index.html`);
    await page.waitForSelector('#search-form:not([hidden])');
    await page.evaluate((v) => {
      const s = document.getElementById('search-project');
      const o = document.createElement('option');
      o.value = v;
      o.textContent = v;
      s.appendChild(o);
      s.value = v;
    }, other);
    await page.fill('#search-q', want.q);
    await page.press('#search-q', 'Enter');
    await page.waitForFunction(() => /pass the filters/.test(document.getElementById('search-count').textContent),
      null, { timeout: 20000 }).catch(() => {});
    const set = await state(page);
    check(`"${other}" chosen before the query: its ${want.projects[other]} matches shown, of that project only`,
      set.metas.length === want.projects[other] && set.metas.every((m) => m.startsWith(`${other} \u00b7 `)),
      `${set.count}\n${set.metas.join('\n')}`);
    // A word too common to list whole ("key": the index keeps a sample)
    // with a yes/no filter set before the query: batch by batch, as
    // without a filter, not every chunk of the sample first (at
    // 1,000,000 facts hundreds of chunks, megabytes, before a result).
    await page.goto(`${base}search/index.html`);
    await page.waitForSelector('#search-form:not([hidden])');
    await page.evaluate(() => { document.getElementById('search-disputed').value = '1'; });
    await page.fill('#search-q', 'key');
    await page.press('#search-q', 'Enter');
    await page.waitForFunction(() => document.querySelectorAll('#search-results li').length > 0,
      null, { timeout: 20000 }).catch(() => {});
    const common = await state(page);
    check(`"key" (a sample) with the disputed filter set before the query: results shown, ${common.bytes} bytes loaded, at most ${BUDGET}`,
      common.metas.length > 0 && common.bytes <= BUDGET && /sample/.test(common.count),
      common.count);
  } finally {
    await b.close();
    srv.close();
  }
  process.exit(failed ? 1 : 0);
})().catch((e) => {
  console.log(`not ok ${n + 1} - the facets run ends cleanly`);
  console.log(`#   ${String(e && e.stack || e).split('\n').join('\n#   ')}`);
  process.exit(1);
});
