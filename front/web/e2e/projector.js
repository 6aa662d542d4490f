// The browser's end-to-end test of the projector: Debian's chromium,
// headless, driven by playwright-core, watches room 3b of gridlag -web at
// the URL given on a 1920x1080 window (node projector.js
// http://127.0.0.1:PORT SHOTS_DIR). The Go test TestBrowserProjector
// (front/web/browser_test.go) starts the server, the room's students
// and its teacher, and does what this script asks on its standard
// output ("do follow", "do press"; a line back when done). The script checks
// that the board fills at least half the window, beside the round's
// clock and the scoreboard, that the page follows the student the
// teacher chose, and that on a phone the panel goes under the board; it
// saves screenshots in SHOTS_DIR, prints what it saw
// and exits 1 at the first thing that is wrong.
'use strict';
const path = require('path');
const { step, fail, lines, screenHas, ask, run } = require('./lib');

const base = process.argv[2];
const shots = process.argv[3];
const WAIT = 30000; // a hang guard, in ms

// wallSpan is the columns and rows of the terminal the board's walls
// span.
function wallSpan(rows) {
  let x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1;
  rows.forEach((l, y) => {
    [...l].forEach((c, x) => {
      if (c !== '█') return;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
    });
  });
  return x1 < 0 ? { cols: 0, rows: 0 } : { cols: x1 - x0 + 1, rows: y1 - y0 + 1 };
}

const width = 1920, height = 1080;
const PHONE = { width: 390, height: 844 }; // a phone held upright
const BASE_FONT = 15; // the page's own font (main.js)
run({ width, height }, async (page) => {
  const resp = await page.goto(base + '/spectate/3b');
  if (resp.status() !== 200) fail(`the page answered ${resp.status()}`);
  // A projector watches without asking for a name.
  await screenHas(page, ['room 3b', '2 stud2', '3 stud3', 'Round 1 ', ' left', 'teacher:'], WAIT);
  const size = await page.evaluate(() => window.gridlag.size());
  if (size.cols < 160 || size.rows < 45 || size.font <= 15) fail(`the terminal is ${JSON.stringify(size)}: want the font grown to about 160x45`);
  step(`the projector's terminal: ${size.cols}x${size.rows} at ${size.font}px`);

  // The board's share of the window: its walls' span in cells, times
  // the terminal's cell in pixels.
  const box = await page.locator('.xterm-screen').boundingBox();
  const span = wallSpan(await lines(page));
  const boardPx = (span.cols * box.width) / size.cols * ((span.rows * box.height) / size.rows);
  const share = boardPx / (width * height);
  if (share < 0.5) fail(`the board spans ${span.cols}x${span.rows} cells, ${(100 * share).toFixed(0)}% of the window: want half at least`);
  step(`the board spans ${span.cols}x${span.rows} cells, ${(100 * share).toFixed(0)}% of the ${width}x${height} window`);
  await page.screenshot({ path: path.join(shots, 'projector-1920x1080.png') });

  await ask('follow');
  await screenHas(page, ['Following 2 stud2', 'sees itself', 'server said', 'lag 1000ms', 'Pending inputs 0'], WAIT);
  step('the page follows the student the teacher chose: stud2');
  await ask('press');
  await screenHas(page, ['Pending inputs 1', '#1     →', 'sees itself ▶'], WAIT);
  await page.screenshot({ path: path.join(shots, 'projector-following-1920x1080.png') });
  step("stud2's press shows on the projector: its avatar a cell on and #1 → in its ledger");
  await screenHas(page, ['Pending inputs 0'], WAIT);
  step("then the server's word: nothing pending");

  // On a phone the font stays the page's own and the panel goes under
  // the board: the round's clock on a row below the board's walls.
  await page.setViewportSize(PHONE);
  let phone;
  await page
    .waitForFunction(
      (font) => {
        const rows = window.gridlag.lines();
        const lastWall = rows.reduce((last, l, y) => (l.includes('████') ? y : last), -1);
        const round = rows.findIndex((l) => l.includes('Round 1 '));
        return window.gridlag.size().font === font && lastWall > 0 && round > lastWall && rows.some((l) => l.includes('Following'));
      },
      BASE_FONT,
      { timeout: WAIT, polling: 50 },
    )
    .catch(async () => fail(`on a ${PHONE.width}x${PHONE.height} phone the panel is not under the board at ${BASE_FONT}px:\n${(await lines(page)).join('\n')}`));
  phone = await page.evaluate(() => window.gridlag.size());
  await page.screenshot({ path: path.join(shots, `projector-phone-${PHONE.width}x${PHONE.height}.png`) });
  step(`on a ${PHONE.width}x${PHONE.height} phone: ${phone.cols}x${phone.rows} at ${phone.font}px, the panel under the board`);
});
