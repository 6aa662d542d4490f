// What the browser tests share (play.js, web2.js, smoke.js, projector.js): Debian's
// chromium, headless, driven by playwright-core; lines to and from the Go
// test that runs them; the terminal's screen as the page reports it.
'use strict';
const { chromium } = require('playwright-core');

let input = null; // the Go test's answers, once asked
const lineIn = () => {
  input = input || require('readline').createInterface({ input: process.stdin });
  return new Promise((r) => input.once('line', r));
};

// ask asks the Go test to do something (a line "do WHAT" out) and
// returns its answer (a line in).
async function ask(what) {
  console.log('do ' + what);
  return lineIn();
}

const t0 = Date.now();
const step = (msg) => console.log(`ok (${((Date.now() - t0) / 1000).toFixed(0)} s): ${msg}`);
const fail = (msg) => {
  throw new Error(msg);
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// lines is the terminal's screen, one string a row.
const lines = (page) => page.evaluate(() => window.gridlag.lines());

// screenHas waits until a row of the screen holds text, or matches it if
// it is written /REGEXP/ (or, given a list, each of its texts).
const screenHas = (page, text, timeout = 15000) => {
  const texts = Array.isArray(text) ? text : [text];
  return page
    .waitForFunction(
      (ts) => ts.every((t) => window.gridlag.lines().some((l) => (t.startsWith('/') ? new RegExp(t.slice(1, -1)).test(l) : l.includes(t)))),
      texts,
      { timeout, polling: 20 },
    )
    .catch(async () => fail(`the screen never showed ${JSON.stringify(text)}:\n${(await lines(page)).join('\n')}`));
};

// drive launches chromium (with args besides the usual), runs main on it
// and closes it; a failure is printed and exits 1.
function drive(main, args = []) {
  (async () => {
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', ...args],
    });
    try {
      await main(browser);
    } finally {
      await browser.close();
      if (input) input.close();
    }
  })().catch((e) => {
    console.error('FAIL: ' + e.message);
    process.exit(1);
  });
}

// run runs test(page, browser) on a new page (viewport: its size;
// more: more of the page's options, e.g. hasTouch) of a new browser, and
// fails if the page reported an error (its Content-Security-Policy
// included).
const run = (viewport, test, args = [], more = {}) =>
  drive(async (browser) => {
    const page = await browser.newPage({ viewport, ...more });
    const problems = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    await test(page, browser);
    if (problems.length) fail('the page reported errors:\n' + problems.join('\n'));
    step('no errors in the page (its Content-Security-Policy included)');
  }, args);

module.exports = { ask, step, fail, sleep, lines, screenHas, drive, run };
