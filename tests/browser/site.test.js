// site.test.js EXAMPLE_SITE HOSTILE_SITE SHOT_DIR
//
// Drives Debian's chromium (headless, through playwright-core) over two
// built sites opened from file://, and prints one TAP line per case
// ("ok N - t_site_browser: ..."), as tests/run.sh counts them.
//
//  1. The example: on the overview of the project of an open cross_layer
//     conflict, the "⚠ disputed" marker sits inside the element of the
//     trusted-state member (#state-..., its table row), names the conflict in its
//     accessible label; clicking it lands on the conflict page, which
//     lists exactly the conflict's members (from its project's
//     api/conflicts/projects/<project slug>.json)
//     in trust order.
//  2. The example on a phone (390 px wide), the largest page of each
//     kind: no word of a table cell or heading is split across lines (a
//     word is a run between spaces and hyphens, where a line may break;
//     one wider than its line may wrap), nothing scrolls sideways, and a
//     table's body cells but the first show their column's header (a
//     data-label, or a rule of the table's class: "Header: "). The
//     project overview at 390 px is at most 3 times as tall as at 1280
//     px, and both shorter than before the cards (41,610 and 17,582 px)
//     and than before its navigation (27,534 and 17,491 px: folds, no
//     empty sections, contents beside the page); its contents stand
//     beside the page and stay in view when scrolled at 1280 px, and
//     are a list in the page's flow at 390 px. The index's chart on
//     the first day is a bar a project, its text 12 px or more.
//  3. The architecture diagram at 390 px, on every overview that has
//     one: its text at least 12 px as drawn (font size times the SVG's
//     scale), no label cut ("…") or running out of its box, a disputed
//     node saying what is disputed, the SVG inside a region that scrolls
//     sideways and that a keyboard reaches (tabindex 0, role region, a
//     name: axe's scrollable-region-focusable), and a diagram that
//     scrolls says so in words a reader sees (its caption).
//  4. The not-found page as a static host sends it for a missing URL at
//     any depth (its bytes at http://mirror.test/a/b/c/page.html, the
//     site served from that origin's root): styled by the theme (the
//     body's font and colours, light and dark) and clean of axe's
//     color-contrast rule in dark mode.
//  5. The hostile corpus: every project overview loads with no script
//     run (no dialog, no script element, no flag set), no request for
//     anything but local files, and the text visible.
//  6. Both sites, every page: the classes the stylesheet uses instead of
//     selectors whose cost grows with the page (issue 69) mark exactly
//     what those selectors found: "in-section" the tables of
//     "h2[id] ~ table", <body class="with-toc"> "main:has(> nav.toc)".
//
// Screenshots of the overview, the conflict page and one hostile page
// go to SHOT_DIR for a person to look at.
'use strict';
const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

const [exampleSite, hostileSite, shotDir] = process.argv.slice(2).map(
  (p) => path.resolve(p));
let n = 0;
let failed = 0;
function check(name, cond, detail) {
  n++;
  if (cond) {
    console.log(`ok ${n} - t_site_browser: ${name}`);
  } else {
    failed++;
    console.log(`not ok ${n} - t_site_browser: ${name}`);
    if (detail !== undefined) console.log(`#   ${detail}`);
  }
}
const url = (site, rel) => 'file://' + path.join(site, rel);
const json = (site, rel) =>
  JSON.parse(fs.readFileSync(path.join(site, rel), 'utf8'));
// Every conflict of the site, from its projects' conflict files: its
// fields with its members, "slug" (its page's) and "open".
const conflictsOf = (site) => {
  const dir = path.join(site, 'api/conflicts/projects');
  return fs.readdirSync(dir).flatMap((f) =>
    json(dir, f).conflicts.map((r) => ({ ...r.conflict,
      slug: r.conflict.slug || r.conflict.id,
      open: r.conflict.status === 'open', members: r.members })));
};

async function example(browser) {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  const offsite = [];
  page.on('request', (r) => {
    if (!r.url().startsWith('file://')) offsite.push(r.url());
  });
  // The SPEC 8 example: an open cross-layer conflict with a state member.
  const all = conflictsOf(exampleSite);
  const fit = (x) => x.open && x.slot_kind === 'cross_layer' &&
    x.project_slug && x.members.some((m) => m.kind === 'project_state');
  const c = all.find((x) => fit(x) && /lateral support material/.test(x.description)) ||
    all.find(fit);
  check('the example has an open cross-layer conflict with a state member',
    c !== undefined);
  if (c === undefined) return page.close();
  const state = c.members.find((m) => m.kind === 'project_state');
  await page.goto(url(exampleSite, `projects/${c.project_slug}/index.html`));
  const marker = page.locator(`#${state.anchor} a.disputed`);
  check(`the overview's ${state.anchor} element holds one disputed marker`,
    (await marker.count()) === 1, `found ${await marker.count()}`);
  if ((await marker.count()) !== 1) return page.close();
  const label = await marker.getAttribute('aria-label');
  check('the marker has an accessible label naming the conflict',
    label !== null && label.includes(c.slug), `aria-label: ${label}`);
  check('the marker reads "⚠ disputed"',
    (await marker.innerText()).trim() === '⚠ disputed');
  for (const m of c.members.filter((x) => x.page !== null && x.project_slug === c.project_slug)) {
    const k = await page.locator(`#${m.anchor} a.disputed`).count();
    check(`member ${m.anchor} carries the marker on the overview`, k === 1,
      `found ${k}`);
  }
  await page.locator(`#${state.anchor}`).scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(shotDir, 'overview.png') });
  await page.screenshot({ path: path.join(shotDir, 'overview-full.png'), fullPage: true });
  await Promise.all([page.waitForURL(`**/conflicts/${c.slug}.html`), marker.click()]);
  check('clicking the marker lands on the conflict page',
    page.url().endsWith(`/conflicts/${c.slug}.html`), page.url());
  const ids = await page.locator('[id^="member-"]').evaluateAll(
    (els) => els.map((e) => e.id));
  const want = c.members.map((m) => `member-${m.anchor}`);
  check('the conflict page lists exactly the conflict\'s members, in trust order',
    JSON.stringify(ids) === JSON.stringify(want),
    `page ${JSON.stringify(ids)} vs ${JSON.stringify(want)}`);
  const text = await page.locator('main').innerText();
  check('the conflict page leads with its state, then names it "X vs Y"',
    text.includes('Open since ') && / vs /.test(text));
  await page.screenshot({ path: path.join(shotDir, 'conflict.png'), fullPage: true });
  // Back to the fact through the member link.
  await Promise.all([page.waitForURL(`**/index.html#${state.anchor}`),
    page.locator(`#member-${state.anchor} a`).first().click()]);
  check('a member link leads back to the fact on the overview',
    page.url().endsWith(`#${state.anchor}`), page.url());
  check('the example requested nothing from another host',
    offsite.length === 0, offsite.join(' '));
  await page.close();
}

// The largest page of each kind of the example, relative to the site.
function pageKinds(site) {
  const kinds = [/^index\.html$/, /^404\.html$/,
    /^projects\/index(\.[a-z0-9.-]+)?\.html$/,
    /^projects\/[^/]+\/index\.html$/, /^projects\/[^/]+\/decisions\.html$/,
    /^projects\/[^/]+\/subsystems\.html$/, /^conflicts\/index\.html$/,
    /^conflicts\/(?!index)[^/]+\.html$/, /^checks\/index\.html$/,
    /^checks\/projects\/[^/]+\.html$/,
    /^checks\/rules\/[^/]+\.html$/,
    /^keys\/index\.html$/, /^keys\/(?!index)[^/]+\.html$/, /^changes\.html$/,
    /^conflicts\/projects\/[^/]+\.html$/, /^search\/index\.html$/];
  const all = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(path.join(site, dir), { withFileTypes: true })) {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory()) walk(rel);
      else if (rel.endsWith('.html')) all.push(rel);
    }
  };
  walk('');
  const size = (r) => fs.statSync(path.join(site, r)).size;
  all.sort((a, b) => size(b) - size(a) || (a < b ? -1 : 1));
  // A kind with no page is a page the site no longer makes: the list
  // must follow, not skip it in silence.
  const found = kinds.map((k) => all.find((r) => k.test(r)));
  check('every kind of page is in the example', found.every((r) => r),
    kinds.filter((k, i) => !found[i]).join(' '));
  return found.filter((r) => r);
}

// In the page: the words of table cells and headings split across lines
// (first few), whether the page scrolls sideways, and the body cells
// of tables that do not show their column's header (neither a
// data-label nor a ::before rule of the table's class).
function layoutFindings() {
  const split = [];
  const walker = document.createTreeWalker(document.querySelector('main'),
    NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const box = t.parentElement.closest('td, th, h1, h2, h3');
    if (box === null) continue;
    const line = box.getBoundingClientRect().width;
    for (const m of t.data.matchAll(/[^\s\-\u2010-\u2014]+/g)) {
      const r = document.createRange();
      r.setStart(t, m.index);
      r.setEnd(t, m.index + m[0].length);
      const rects = [...r.getClientRects()].filter((x) => x.width > 0);
      const tops = new Set(rects.map((x) => Math.round(x.top)));
      const wide = rects.reduce((a, x) => a + x.width, 0) > line;
      if (tops.size > 1 && !wide) split.push(m[0]);
    }
  }
  const s = document.scrollingElement;
  const unlabelled = [];
  for (const table of document.querySelectorAll('main table')) {
    const heads = [...table.querySelectorAll('thead th')].map(
      (th) => th.textContent.trim());
    for (const tr of table.querySelectorAll('tbody tr')) {
      // A cell shows its column's header as data-label, or its
      // table's class has a rule that shows it ("Header: "). The first
      // cell is the card's title, shown unlabelled: it has neither.
      [...tr.children].forEach((td, i) => {
        const want = i === 0 ? null : heads[i] || null;
        const label = td.getAttribute('data-label');
        const before = getComputedStyle(td, '::before').content;
        const shown = want === null ? label === null &&
          (before === 'none' || before === 'normal') :
          label === want || before === JSON.stringify(`${want}: `);
        if (!shown)
          unlabelled.push(`${heads[i]}: ${label} / ${before}`);
      });
    }
  }
  return { split, scroll: [s.scrollWidth, s.clientWidth], unlabelled,
    height: s.scrollHeight };
}

// Every HTML page of site, relative to it, in name order.
function htmlPages(site) {
  return fs.readdirSync(site, { recursive: true })
    .filter((r) => r.endsWith('.html')).sort();
}

// The classes that stand for selectors whose cost grows with the page
// (issue 69) mark what those selectors meant, on every page of both
// sites: "in-section" exactly the tables "h2[id] ~ table" finds, and
// <body class="with-toc"> exactly the pages "main:has(> nav.toc)" finds.
async function sectionClasses(browser) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const tables = [];
  const tocs = [];
  for (const site of [exampleSite, hostileSite]) {
    for (const rel of htmlPages(site)) {
      await page.goto(url(site, rel));
      const r = await page.evaluate(() => {
        const all = [...document.querySelectorAll('table')];
        const want = new Set(document.querySelectorAll('h2[id] ~ table'));
        return {
          tables: all.map((t, i) => want.has(t) ===
            t.classList.contains('in-section') ? -1 : i).filter((i) => i >= 0),
          toc: (document.querySelector('main:has(> nav.toc)') !== null) ===
            document.body.classList.contains('with-toc'),
        };
      });
      if (r.tables.length) tables.push(`${rel}: table ${r.tables.join(', ')}`);
      if (!r.toc) tocs.push(rel);
    }
  }
  check('class "in-section" marks exactly the tables after an h2 with an id',
    tables.length === 0, tables.slice(0, 5).join('; '));
  check('<body class="with-toc"> marks exactly the pages whose main holds the contents',
    tocs.length === 0, tocs.slice(0, 5).join('; '));
  await page.close();
}

async function phone(browser) {
  const page = await browser.newPage({ viewport: { width: 390, height: 900 } });
  for (const rel of pageKinds(exampleSite)) {
    await page.goto(url(exampleSite, rel));
    const f = await page.evaluate(layoutFindings);
    check(`${rel} at 390 px: no word of a cell or heading split across lines`,
      f.split.length === 0, `${f.split.length} split: ${f.split.slice(0, 8).join(' | ')}`);
    check(`${rel} at 390 px: nothing scrolls sideways`,
      f.scroll[0] <= f.scroll[1], `scrollWidth ${f.scroll[0]} > ${f.scroll[1]}`);
    check(`${rel} at 390 px: every body cell but the first shows its column's header, the first none`,
      f.unlabelled.length === 0, f.unlabelled.slice(0, 5).join(' | '));
  }
  const rel = 'projects/p05-interferometer/index.html';
  await page.goto(url(exampleSite, rel));
  const narrow = (await page.evaluate(layoutFindings)).height;
  await page.screenshot({ path: path.join(shotDir, 'overview-390.png') });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(url(exampleSite, rel));
  const wide = (await page.evaluate(layoutFindings)).height;
  check(`${rel} at 390 px is at most 3 times as tall as at 1280 px`,
    narrow <= 3 * wide, `${narrow} px vs ${wide} px`);
  check(`${rel} is shorter than before the cards at 390 and 1280 px`,
    narrow < 41610 && wide < 17582, `${narrow} px and ${wide} px`);
  check(`${rel} is shorter than before its navigation at 390 and 1280 px`,
    narrow < 27534 && wide < 17491, `${narrow} px and ${wide} px`);
  // The contents: a column beside the page that stays in view at
  // 1280 px; a list in the page's flow at 390 px.
  const toc = async () => page.evaluate(() => {
    const nav = document.querySelector('main > nav.toc');
    const h1 = document.querySelector('main > h1').getBoundingClientRect();
    window.scrollTo(0, document.scrollingElement.scrollHeight / 2);
    const r = nav.getBoundingClientRect();
    return { beside: r.left >= h1.right, inView: r.top >= 0 && r.top < innerHeight,
      position: getComputedStyle(nav).position };
  });
  const w = await toc();
  check(`${rel} at 1280 px: the contents stand beside the page and stay in view`,
    w.beside && w.inView && w.position === 'sticky', JSON.stringify(w));
  await page.setViewportSize({ width: 390, height: 900 });
  await page.goto(url(exampleSite, rel));
  const p = await toc();
  check(`${rel} at 390 px: the contents are a list in the page's flow`,
    !p.beside && p.position === 'static', JSON.stringify(p));
  // The index's chart on the first day: a bar a project, its text at
  // least 12 px as drawn at 390 px.
  await page.goto(url(exampleSite, 'index.html'));
  const bars = await page.evaluate(() => {
    const svg = document.querySelector('figure.chart svg');
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const g = svg.querySelector('g[font-size]');
    return { rects: svg.querySelectorAll('rect').length,
      px: Number(g.getAttribute('font-size')) * scale };
  });
  check('index.html at 390 px: the first day\'s chart is a bar a project, its text at least 12 px',
    bars.rects >= 2 && bars.px >= 12, JSON.stringify(bars));
  await page.close();
}

// In the page: the diagram's texts as drawn.
function diagramFindings() {
  const svg = document.querySelector('svg.diagram');
  if (svg === null) return null;
  const region = svg.closest('[role="region"]');
  const small = [];
  const cut = [];
  const out = [];
  for (const t of svg.querySelectorAll('text')) {
    const px = parseFloat(getComputedStyle(t).fontSize) * svg.getScreenCTM().a;
    if (px < 12) small.push(`${t.textContent} (${px.toFixed(1)} px)`);
    if (t.textContent.includes('\u2026')) cut.push(t.textContent);
    const box = t.closest('g').querySelector('rect').getBBox();
    const b = t.getBBox();
    if (b.x < box.x || b.x + b.width > box.x + box.width ||
        b.y < box.y || b.y + b.height > box.y + box.height) out.push(t.textContent);
  }
  const disputes = [...svg.querySelectorAll('a .diagram-dispute')].map(
    (t) => t.textContent);
  // Each text's size, weight and fill as computed (inherited from the
  // <svg> or its own): with the stylesheet, and without it as in the
  // plain theme, where a fill must be the text's currentColor (made
  // unlike the default black, so an unset fill shows).
  const want = { 'diagram-label': '13px 600', 'diagram-detail': '12px 400',
    'diagram-dispute': '12px 600' };
  const styled = [];
  for (const bare of [false, true]) {
    for (const sheet of document.styleSheets) sheet.disabled = bare;
    svg.style.color = bare ? 'rgb(1, 2, 3)' : '';
    for (const t of svg.querySelectorAll('text')) {
      const c = getComputedStyle(t);
      const got = `${c.fontSize} ${c.fontWeight}`;
      if (got !== want[t.getAttribute('class')] ||
          (bare && c.fill !== 'rgb(1, 2, 3)') || c.fill === 'none')
        styled.push(`${bare ? 'bare' : 'styled'} ${t.getAttribute('class')}: ${got} ${c.fill}`);
    }
    for (const r of svg.querySelectorAll('.diagram-node rect')) {
      const c = getComputedStyle(r);
      if (bare && (c.fill !== 'none' || c.stroke !== 'rgb(1, 2, 3)'))
        styled.push(`bare rect: ${c.fill} ${c.stroke}`);
    }
  }
  for (const sheet of document.styleSheets) sheet.disabled = false;
  const lone = [...svg.querySelectorAll('text')].filter(
    (t) => t.querySelectorAll('tspan').length === 1).map((t) => t.textContent);
  const caption = svg.closest('figure').querySelector('figcaption');
  return { small, cut, out, disputes, styled, lone,
    says: caption !== null && caption.offsetHeight > 0 &&
      /scrolls sideways/.test(caption.innerText),
    links: svg.querySelectorAll('a').length,
    region: region && [region.getAttribute('tabindex'),
      region.getAttribute('aria-label'), getComputedStyle(region).overflowX],
    scrolls: region !== null && region.scrollWidth > region.clientWidth };
}

async function diagram(browser) {
  const page = await browser.newPage({ viewport: { width: 390, height: 900 } });
  const projects = fs.readdirSync(path.join(exampleSite, 'projects')).sort();
  let seen = 0;
  let disputed = 0;
  for (const p of projects) {
    const rel = `projects/${p}/index.html`;
    if (!fs.existsSync(path.join(exampleSite, rel))) continue;
    await page.goto(url(exampleSite, rel));
    const f = await page.evaluate(diagramFindings);
    if (f === null) continue;
    seen++;
    check(`${rel} at 390 px: the diagram's text is at least 12 px`,
      f.small.length === 0, f.small.slice(0, 4).join(' | '));
    check(`${rel} at 390 px: no diagram label is cut or runs out of its box`,
      f.cut.length === 0 && f.out.length === 0,
      `cut: ${f.cut.slice(0, 3).join(' | ')}; out: ${f.out.slice(0, 3).join(' | ')}`);
    check(`${rel}: the diagram's labels compute to 13 px 600, details to 12 px, with and without the stylesheet, filled`,
      f.styled.length === 0, f.styled.slice(0, 4).join(' | '));
    check(`${rel}: a diagram text of one line has no tspan`,
      f.lone.length === 0, f.lone.slice(0, 4).join(' | '));
    check(`${rel}: each disputed node says what is disputed`,
      f.disputes.length === f.links &&
        f.disputes.every((d) => /^\u26a0 disputed: \S/.test(d)),
      `${f.links} links, lines: ${f.disputes.join(' | ')}`);
    disputed += f.links;
    check(`${rel}: the diagram scrolls in a named region a keyboard reaches`,
      f.region !== null && f.region[0] === '0' && f.region[1] &&
        f.region[2] === 'auto', JSON.stringify(f.region));
    if (f.scrolls)
      check(`${rel} at 390 px: the diagram scrolls and its caption says so`,
        f.says);
    if (p === 'p05-interferometer') {
      check(`${rel} at 390 px: the diagram is wider than the phone and scrolls`,
        f.scrolls);
      await page.locator('figure.diagram-figure').scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(shotDir, 'diagram-390.png') });
    }
  }
  check('the example has overviews with a diagram, and disputed nodes in them',
    seen >= 3 && disputed >= 2, `${seen} diagrams, ${disputed} disputed nodes`);
  await page.close();
}

// The not-found page as a static host serves it: the site at the root of
// http://mirror.test/, 404.html's bytes for any missing path.
async function notFound(browser) {
  const axe = path.join(__dirname, 'node_modules', 'axe-core', 'axe.min.js');
  for (const scheme of ['light', 'dark']) {
    const context = await browser.newContext({ viewport: { width: 390, height: 900 },
      colorScheme: scheme });
    await context.route('http://mirror.test/**', (route) => {
      const rel = decodeURIComponent(new URL(route.request().url()).pathname).slice(1);
      const file = path.join(exampleSite, rel);
      const found = rel !== '' && !rel.includes('..') && fs.existsSync(file) &&
        fs.statSync(file).isFile();
      route.fulfill({ status: found ? 200 : 404,
        contentType: /\.css$/.test(rel) ? 'text/css' : 'text/html; charset=utf-8',
        body: fs.readFileSync(found ? file : path.join(exampleSite, '404.html')) });
    });
    const page = await context.newPage();
    const res = await page.goto('http://mirror.test/a/b/c/page.html');
    const body = await page.evaluate(() => {
      const s = getComputedStyle(document.body);
      return [s.fontFamily, s.color, s.backgroundColor];
    });
    const want = scheme === 'dark' ? ['rgb(230, 237, 243)', 'rgb(13, 17, 23)'] :
      ['rgb(27, 31, 36)', 'rgb(255, 255, 255)'];
    check(`the not-found page at a deep path is styled by the theme (${scheme})`,
      res.status() === 404 && /^system-ui/.test(body[0]) &&
        body[1] === want[0] && body[2] === want[1],
      `status ${res.status()}, body ${JSON.stringify(body)}`);
    if (scheme === 'dark') {
      await page.addScriptTag({ path: axe });
      const v = await page.evaluate(async () => (await window.axe.run(document,
        { runOnly: ['color-contrast'] })).violations.map((x) =>
        x.nodes.map((n) => n.target.join(' ')).join(', ')));
      check('the not-found page at a deep path passes axe\'s color-contrast in dark mode',
        v.length === 0, v.join(' | '));
    }
    await page.screenshot({ path: path.join(shotDir, `404-deep-${scheme}.png`) });
    await context.close();
  }
}

async function hostile(browser) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const dialogs = [];
  const offsite = [];
  await context.addInitScript(() => {
    // Any script the page itself runs would find this and could set it.
    window.__mirrorScripts = 0;
  });
  // The projects' folders (projects/ holds the projects list's pages too).
  const projects = fs.readdirSync(path.join(hostileSite, 'projects'),
    { withFileTypes: true }).filter((e) => e.isDirectory())
    .map((e) => e.name).sort();
  let loaded = 0;
  let scripts = 0;
  let shown = 0;
  const page = await context.newPage();
  let p = '';
  page.on('dialog', (d) => { dialogs.push(`${p}: ${d.message()}`); d.dismiss(); });
  page.on('request', (r) => {
    if (!r.url().startsWith('file://')) offsite.push(`${p}: ${r.url()}`);
  });
  for (p of projects) {
    await page.goto(url(hostileSite, `projects/${p}/index.html`));
    loaded++;
    // The only SVG is the picture mirror draws (the architecture
    // diagram, the index's chart), never one of the store's; the only
    // script, the layout's assets/keys.js ("/" focuses the search box).
    scripts += await page.evaluate(() => [...document.scripts].filter((s) =>
      !/\/assets\/keys\.js$/.test(s.src)).length +
      document.querySelectorAll('iframe, object, embed, img').length +
      [...document.querySelectorAll('svg')].filter((v) =>
        !v.closest('figure.diagram-figure, figure.chart')).length);
    if ((await page.locator('main').innerText()).length > 0) shown++;
    if (p === 'h01') {
      check('the script text is visible as text',
        (await page.locator('main').innerText()).includes('<script>alert("xss")</script>'));
      await page.screenshot({ path: path.join(shotDir, 'hostile.png'), fullPage: true });
    }
  }
  await page.close();
  check(`all ${projects.length} hostile overviews load`,
    loaded === projects.length && shown === projects.length);
  check('no hostile page ran a script (no dialog)', dialogs.length === 0,
    dialogs.slice(0, 5).join(' | '));
  check('no hostile page holds a script, iframe, object, image or svg',
    scripts === 0, `${scripts} found`);
  check('no hostile page requested anything from another host',
    offsite.length === 0, offsite.slice(0, 5).join(' '));
  await context.close();
}

// 6. A project's review queue with JavaScript: a form filters its
//    entries by kind and by the day they were detected, and a live
//    region counts what is shown (issue 57, item 7); without a choice
//    every entry shows.
async function queue(browser) {
  const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  await page.goto(url(exampleSite, 'conflicts/projects/p06-polisher.html'));
  const visible = () => page.$$eval('main > ul > li',
    (lis) => lis.filter((li) => !li.hidden && li.offsetParent !== null).length);
  const all = await visible();
  const count = () => page.$eval('#queue-count', (e) => e.textContent);
  check('the queue page has a filter form with Kind and Detected, labelled',
    await page.$$eval('form.queue-filter label', (ls) => ls.map((l) =>
      l.textContent + '>' + (document.getElementById(l.htmlFor) || {}).tagName)
      .join(',')) === 'Kind>SELECT,Detected>SELECT');
  check('... unfiltered, every entry shows and the count says so',
    all === 5 && (await count()) === '5 conflicts shown', `${all}, ${await count()}`);
  await page.selectOption('#queue-kind', 'between engineering records');
  const kinds = await visible();
  check('filtering by kind shows that kind alone, its heading kept, others hidden',
    kinds === 3 && (await count()) === '3 conflicts shown' &&
    await page.$$eval('main > h2', (hs) => hs.filter((h) => !h.hidden)
      .map((h) => h.textContent).join('|')) ===
      'Open, between engineering records: 3 conflicts', `${kinds}`);
  await page.selectOption('#queue-kind', '');
  await page.selectOption('#queue-age', '-90');
  check('filtering by age counts from the detection date (none over 90 days '
    + 'old today, all 2026-11-01 or later)',
    (await visible()) === (Date.now() - Date.parse('2026-11-01') > 90 * 86400000 ? 5 : 0));
  await page.close();
}

(async () => {
  fs.mkdirSync(shotDir, { recursive: true });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu',
      '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run'],
  });
  try {
    await example(browser);
    await phone(browser);
    await diagram(browser);
    await notFound(browser);
    await hostile(browser);
    await queue(browser);
    await sectionClasses(browser);
  } finally {
    await browser.close();
  }
  process.exit(failed ? 1 : 0);
})().catch((e) => {
  console.log(`not ok ${n + 1} - t_site_browser: the browser run failed`);
  console.log(`#   ${String(e && e.stack || e).split('\n').join('\n#   ')}`);
  process.exit(1);
});
