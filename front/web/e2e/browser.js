// What the browser's end-to-end scripts share: Debian's chromium,
// headless, and the page's terminal as lines of text
// (window.gridlag.lines()).
'use strict';
const { chromium } = require('playwright-core');

// launch starts the browser.
const launch = () =>
  chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync',
      // evil.example points at the server, as a DNS rebinding page's does.
      '--host-resolver-rules=MAP evil.example 127.0.0.1'],
  });

const step = (msg) => console.log('ok: ' + msg);
const fail = (msg) => {
  throw new Error(msg);
};

// lines is the terminal's screen, one string a row.
const lines = (page) => page.evaluate(() => window.gridlag.lines());

// screenHas waits until the screen shows text (or every text of a list),
// or fails saying what it shows.
const screenHas = (page, text, timeout = 15000) => {
  const texts = Array.isArray(text) ? text : [text];
  return page
    .waitForFunction((ts) => ts.every((t) => window.gridlag.lines().some((l) => l.includes(t))), texts, { timeout, polling: 20 })
    .catch(async () => fail(`the screen never showed ${JSON.stringify(text)}:\n${(await lines(page)).join('\n')}`));
};

// ask asks the Go test that runs the script to do what (a line out), and
// waits until it is done (a line in); hangUp lets the script end.
const input = require('readline').createInterface({ input: process.stdin });
async function ask(what) {
  console.log(what);
  await new Promise((r) => input.once('line', r));
}
const hangUp = () => input.close();

// run runs test(page, browser) on a new page of a new browser
// (viewport: the page's size), fails if the page reported an error (its
// Content-Security-Policy included), and exits 1 saying why at the
// first failure.
function run(viewport, test) {
  (async () => {
    const browser = await launch();
    try {
      const page = await browser.newPage({ viewport });
      const problems = [];
      page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      page.on('pageerror', (e) => problems.push(e.message));
      await test(page, browser);
      if (problems.length) fail('the page reported errors:\n' + problems.join('\n'));
      step('no errors in the page (its Content-Security-Policy included)');
    } finally {
      await browser.close();
      hangUp();
    }
  })().catch((e) => {
    console.error('FAIL: ' + e.message);
    process.exit(1);
  });
}

module.exports = { step, fail, lines, screenHas, ask, run };
