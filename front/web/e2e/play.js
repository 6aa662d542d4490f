// The browser's end-to-end test of gridlag -web: Debian's chromium,
// headless, driven by playwright-core, plays on the server at the URL
// given (node play.js http://127.0.0.1:PORT). The Go test
// TestBrowserPlays (front/web/browser_test.go) starts the server and runs this.
// It prints what it saw and exits 1 at the first thing that is wrong.
'use strict';
const { ask, step, fail, lines, screenHas, drive } = require('./lib');

const base = process.argv[2];

// wallRun is the longest row of wall on a screen: the map's width in
// cells times the columns a cell takes, which the layout picks.
const wallRun = (rows) => Math.max(0, ...rows.map((l) => Math.max(0, ...(l.match(/█+/g) || []).map((r) => r.length))));

// until polls ok (an async function) every 50 ms until it holds, or
// fails with what(), after timeout ms.
async function until(ok, what, timeout = 15000) {
  const end = Date.now() + timeout;
  while (!(await ok())) {
    if (Date.now() > end) fail(await what());
    await new Promise((r) => setTimeout(r, 50));
  }
}

// evil.example points at the server, as a DNS rebinding page's does.
drive(async (browser) => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const problems = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));

    const resp = await page.goto(base + '/');
    if (resp.status() !== 200) fail(`the page answered ${resp.status()}`);
    step('the page loads');
    const how = await page.textContent('#howto');
    if (!how.startsWith('How to play: arrows move')) fail(`the line on how to play says ${JSON.stringify(how)}`);

    await page.fill('#name', 'ada');
    await page.click('#name-form button[type=submit]');
    await screenHas(page, 'you (10,10)');
    step('the game shows you (10,10)');
    await page.waitForFunction(() => window.gridlag.player(), null, { timeout: 15000 });
    const me = await page.evaluate(() => ({ ...window.gridlag.player(), joins: window.gridlag.joins() }));
    step(`playing as ${me.name}, player ${me.player}`);

    await page.keyboard.press('ArrowRight');
    await screenHas(page, 'you (11,10)');
    await screenHas(page, 'server (11,10)');
    step('ArrowRight shows you (11,10)');

    // A click on the latency slider sets the latency, as in a terminal.
    const rows = await lines(page);
    const row = rows.findIndex((l) => l.includes('●─'));
    if (row < 0) fail('no latency slider on the screen');
    const col = rows[row].indexOf('●') + 20;
    const box = await page.locator('.xterm-screen').boundingBox();
    const { cols, rows: nrows } = await page.evaluate(() => window.gridlag.size());
    await page.mouse.click(box.x + ((col + 0.5) * box.width) / cols, box.y + ((row + 0.5) * box.height) / nrows);
    await page.waitForFunction(() => window.gridlag.lines().some((l) => /lag [1-9][0-9]*ms/.test(l)), null, { timeout: 15000 })
      .catch(async () => fail(`a click on the slider set no latency:\n${(await lines(page)).join('\n')}`));
    step('a click on the slider sets the latency');

    const wide = { size: await page.evaluate(() => window.gridlag.size()), run: wallRun(await lines(page)) };
    await page.setViewportSize({ width: 760, height: 520 });
    let narrow;
    await until(
      async () => {
        const rows = await lines(page);
        narrow = { size: await page.evaluate(() => window.gridlag.size()), run: wallRun(rows) };
        // The wide layout gives a cell two columns, the compact one one.
        return narrow.size.cols < wide.size.cols && 2 * narrow.run === wide.run && rows.some((l) => l.includes('you (11,10)'));
      },
      async () => `the board kept its layout after the resize (${JSON.stringify(wide)} -> ${JSON.stringify(narrow)}):\n${(await lines(page)).join('\n')}`,
    );
    step(`a resize changes the board's layout: ${wide.size.cols}x${wide.size.rows}, walls of ${wide.run} columns -> ${narrow.size.cols}x${narrow.size.rows}, walls of ${narrow.run} (a cell one column wide, not two)`);

    // The connection drops (the Go test cuts every socket when told): the
    // page shows its reconnect screen, comes back by itself, and the
    // server gives it its avatar back.
    await ask('cut');
    await page
      .waitForFunction(() => !document.getElementById('overlay').hidden && document.getElementById('message').textContent.startsWith('Connection lost: reconnecting'), null, { timeout: 15000, polling: 10 })
      .catch(() => fail('no reconnect screen after the connection dropped'));
    step('a dropped connection shows the reconnect screen');
    const again = await page
      .waitForFunction((n) => window.gridlag.connected() && window.gridlag.player() && window.gridlag.joins() > n, me.joins, { timeout: 15000 })
      .then(() => page.evaluate(() => window.gridlag.player()));
    if (again.player !== me.player || !again.resumed) fail(`after the drop: ${JSON.stringify(again)}, want player ${me.player} resumed`);
    await screenHas(page, 'you (11,10)');
    step(`the page reconnects by itself, as the same player: player ${again.player}`);

    await page.reload();
    const back = await page.waitForFunction(() => window.gridlag.player(), null, { timeout: 15000 }).then((h) => h.jsonValue());
    if (back.player !== me.player || !back.resumed) fail(`after the reload: ${JSON.stringify(back)}, want player ${me.player} resumed`);
    await screenHas(page, 'you (11,10)');
    step(`a reload resumes the same player: player ${back.player}, at (11,10)`);

    if (problems.length) fail('the page reported errors:\n' + problems.join('\n'));
    step('no errors in the page (its Content-Security-Policy included)');

    // The page on a name the server does not answer to (a DNS rebinding
    // site's, or one its operator has not allowed): its socket is
    // refused, and it says why instead of reconnecting.
    const rebound = await browser.newPage({ viewport: { width: 1024, height: 600 } });
    await rebound.goto(base.replace('127.0.0.1', 'evil.example') + '/');
    await rebound.fill('#name', 'eve');
    await rebound.click('#name-form button[type=submit]');
    const why = await rebound
      .waitForFunction(() => !document.getElementById('overlay').hidden && document.getElementById('message').textContent.includes('does not answer to the name'), null, { timeout: 15000 })
      .then(() => rebound.textContent('#message'))
      .catch(async () => fail(`the page on evil.example does not say why it cannot play: ${JSON.stringify(await rebound.textContent('#message'))}`));
    if (!why.includes('evil.example') || (await rebound.evaluate(() => window.gridlag.player()))) fail(`the page on evil.example: ${JSON.stringify(why)}`);
    if (process.env.GRIDLAG_SHOTS) await rebound.screenshot({ path: process.env.GRIDLAG_SHOTS + '/rebound.png' });
    step(`a page on a name the server does not answer to is refused and says so: ${JSON.stringify(why)}`);
}, ['--host-resolver-rules=MAP evil.example 127.0.0.1']);
