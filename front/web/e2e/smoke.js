// A quick play of a gridlag -web page in Debian's chromium, headless,
// driven by playwright-core: node smoke.js http://HOST:PORT loads the
// page, chooses a name, sees the game, and moves with ArrowRight. The Go
// test TestGoInstallServesThePage (cmd/gridlag) runs it against a binary
// built without npm. It exits 1 at the first thing that is wrong.
'use strict';
const { step, drive } = require('./lib');

drive(async (browser) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(process.argv[2] + '/');
    await page.fill('#name', 'ada');
    await page.click('#name-form button[type=submit]');
    const at = () =>
      page
        .waitForFunction(() => window.gridlag.lines().join('\n').match(/you \(([0-9]+),([0-9]+)\)/), null, { timeout: 15000 })
        .then((h) => h.jsonValue())
        .then((m) => [Number(m[1]), Number(m[2])]);
    const [x, y] = await at();
    step(`the page plays: you (${x},${y})`);
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction((w) => window.gridlag.lines().some((l) => l.includes(w)), `you (${x + 1},${y})`, { timeout: 15000 });
    step(`ArrowRight moves to (${x + 1},${y})`);
});
