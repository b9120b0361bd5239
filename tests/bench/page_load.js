// page_load.js FILE.html TIMEOUT_S: how long Chromium takes to load a page
// of a built site, as a person opening it meets it (tests/bench/bench.py,
// its browser row).
//
// In Debian's chromium (headless, through playwright-core and
// tests/browser/chromium.js), once at 1280x900 and once at 390x844 (a
// phone), each in a new tab: the time from asking for file://FILE until
// its load event has fired and the page is laid out (the height of the
// document read once, which makes the browser finish its style and
// layout). Prints one JSON object: {"1280": seconds, "390": seconds};
// a width that did not load within TIMEOUT_S seconds is null.
'use strict';
const path = require('path');
const { launch } = require('../browser/chromium.js');

const [file, limit] = process.argv.slice(2);
const timeout = 1000 * Number(limit || 300);

(async () => {
  const url = 'file://' + path.resolve(file);
  const b = await launch();
  const out = {};
  try {
    for (const [width, height] of [[1280, 900], [390, 844]]) {
      const page = await b.context.newPage();
      await page.setViewportSize({ width, height });
      const t = process.hrtime.bigint();
      try {
        await page.goto(url, { waitUntil: 'load', timeout });
        await page.evaluate(() => document.documentElement.scrollHeight);
        out[width] = Number(process.hrtime.bigint() - t) / 1e9;
      } catch (e) {
        out[width] = null;
      }
      await page.close();
    }
  } finally {
    await b.close();
  }
  console.log(JSON.stringify(out));
})().catch((e) => {
  console.error(`page_load: ${e && e.stack || e}`);
  process.exit(1);
});
