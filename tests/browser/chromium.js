// chromium.js: the one way the browser tests start a browser: Debian's
// /usr/bin/chromium, headless, through playwright-core (whose own browser
// download is never used), with a fresh profile that is removed again.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { chromium } = require('playwright-core');

// Returns { context, close }: a persistent context on a fresh
// --user-data-dir (playwright's way to pass one), and a function that
// closes the browser and removes the profile.
async function launch(options = {}) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'mirror-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
      '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
    ...options,
  });
  return {
    context,
    async close() {
      try {
        await context.close();
      } finally {
        fs.rmSync(profile, { recursive: true, force: true });
      }
    },
  };
}

module.exports = { launch };
