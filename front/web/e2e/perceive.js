// The browser's end-to-end test of the perception test's rounds on the
// page: Debian's chromium, headless, driven by playwright-core, plays in
// room 3b of gridlag -web at the URL given, as ada on a 390x844 touch
// screen (node perceive.js http://127.0.0.1:PORT). The Go test
// TestBrowserPerception (front/web/browser_test.go) starts the server and
// the room's teacher, and starts a run of three rounds when this script
// asks ("do start"). Each round the page shows the question and no
// round trip; ada answers round 1 with a tap on the touch controls'
// laggy, round 2 with a click on the terminal's [ n  fine ], round 3
// with the y key; at the end the page shows ada's results. The Go test
// then reads the answers in the CSV the server saved. It prints what it
// saw and exits 1 at the first thing that is wrong; with $GRIDLAG_SHOTS
// set it saves screenshots of the rounds and the results there.
'use strict';
const path = require('path');
const { ask, step, fail, lines, screenHas, run } = require('./lib');

const base = process.argv[2];
const WAIT = 30000; // a hang guard, in ms
const roundTrip = /\d+ ?ms/;

// cellAt returns the page's pixel in the middle of the terminal's cell
// where text first shows (its column plus off).
async function cellAt(page, text, off = 0) {
  const rows = await lines(page);
  const row = rows.findIndex((l) => l.includes(text));
  if (row < 0) fail(`no ${text} on the screen:\n${rows.join('\n')}`);
  const col = rows[row].indexOf(text) + off;
  const box = await page.locator('.xterm-screen').boundingBox();
  const { cols, rows: nrows } = await page.evaluate(() => window.gridlag.size());
  return { x: box.x + ((col + 0.5) * box.width) / cols, y: box.y + ((row + 0.5) * box.height) / nrows };
}

run({ width: 390, height: 844 }, async (page) => {
  const resp = await page.goto(base + '/room/3b');
  if (resp.status() !== 200) fail(`the page answered ${resp.status()}`);
  await page.fill('#name', 'ada');
  await page.click('#name-form button[type=submit]');
  await screenHas(page, ['you (10,10)'], WAIT);
  if (!(await page.isVisible('#touch button[data-key="y"]'))) fail('the touch controls have no laggy button');
  step('ada plays in room 3b on a phone, the touch controls with laggy and fine');

  await ask('start');
  const rounds = 3;
  for (let r = 1; r <= rounds; r++) {
    await screenHas(page, [`round ${r} of ${rounds}`, 'Did that feel laggy?'], WAIT);
    const screen = (await lines(page)).join('\n');
    const m = screen.match(roundTrip);
    if (m) fail(`round ${r}: the page shows a round trip (${m[0]}):\n${screen}`);
    if (process.env.GRIDLAG_SHOTS) await page.screenshot({ path: path.join(process.env.GRIDLAG_SHOTS, `perception-round-${r}.png`) });
    switch (r) {
      case 1:
        await page.tap('#touch button[data-key="y"]');
        step('round 1: no round trip on the page; a tap on laggy');
        break;
      case 2: {
        const at = await cellAt(page, '[ n  fine ]', 4);
        await page.mouse.click(at.x, at.y);
        step('round 2: a click on the terminal\'s [ n  fine ]');
        break;
      }
      default:
        await page.keyboard.press('y');
        step('round 3: the y key');
    }
  }
  await screenHas(page, ['Perception test: your answers', `${rounds} rounds, ${rounds} answered`], WAIT);
  step('the page shows ada her own results: 3 rounds, 3 answered');
  if (process.env.GRIDLAG_SHOTS) await page.screenshot({ path: path.join(process.env.GRIDLAG_SHOTS, 'perception-results.png') });
}, [], { hasTouch: true, isMobile: true });
