// The browser's end-to-end test of the page's second part (issue 34):
// close codes, flow control, keepalive, a phone. Debian's chromium,
// headless, driven by playwright-core. The Go test TestBrowserWebII
// (front/web/browser_test.go) starts the servers and runs this:
//
//   node web2.js PLAY REFUSE FLOOD DEAD
//
// PLAY is a server with the default caps, REFUSE one with one session an
// address and a retry of RETRY seconds, FLOOD one that takes 5 messages a
// second, DEAD one behind a proxy the Go test can make drop everything
// silently, its keepalive KEEPALIVE seconds. A line "do WHAT" out asks
// the Go test to do something, which answers a line when it is done.
// It prints what it saw and exits 1 at the first thing that is wrong.
'use strict';
const { ask, step, fail, sleep, lines, screenHas, drive } = require('./lib');

const [play, refuse, flood, dead] = process.argv.slice(2);
const retry = Number(process.env.RETRY);
const keepalive = Number(process.env.KEEPALIVE);
const shots = process.env.GRIDLAG_SHOTS;

const message = (page) => page.evaluate(() => (document.getElementById('overlay').hidden ? '' : document.getElementById('message').textContent));
const messageHas = (page, text, timeout = 15000) =>
  page
    .waitForFunction((t) => !document.getElementById('overlay').hidden && document.getElementById('message').textContent.includes(t), text, { timeout, polling: 20 })
    .catch(async () => fail(`the page never said ${JSON.stringify(text)}; it says ${JSON.stringify(await message(page))}`));
const wallRun = (rows) => Math.max(0, ...rows.map((l) => Math.max(0, ...(l.match(/█+/g) || []).map((r) => r.length))));

// join opens base in a new page of ctx as name and waits until it plays.
async function join(ctx, base, name) {
  const page = await ctx.newPage();
  const problems = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  page.problems = problems;
  await page.goto(base + '/');
  await page.fill('#name', name);
  await page.click('#name-form button[type=submit]');
  return page;
}

async function playing(page) {
  await screenHas(page, 'you (10,10)');
  await page.waitForFunction(() => window.gridlag.player(), null, { timeout: 15000 });
}

drive(async (browser) => {
    // 1013: a tab from the address of a server that takes one an address,
    // while another session from it plays (the Go test's), is refused
    // for now: it says why and when it tries again, and makes no attempt
    // before the wait the server asked; once the other session leaves, it
    // joins by itself.
    {
      await ask('hold');
      const ctxA = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const b = await join(ctxA, refuse, 'bea');
      await messageHas(b, 'Trying again in');
      const said = await message(b);
      const refusedAt = Date.now();
      if (!/too many|sessions|address/i.test(said)) fail(`the refused page says ${JSON.stringify(said)}, not why`);
      const closes = await b.evaluate(() => window.gridlag.closes());
      if (closes.length !== 1 || closes[0].code !== 1013) fail(`the refused page's socket closed with ${JSON.stringify(closes)}, want one 1013`);
      if (shots) await b.screenshot({ path: shots + '/refused-1013.png' });
      step(`a page refused for a cap shows ${JSON.stringify(said)} (close ${closes[0].code})`);
      while (Date.now() - refusedAt < retry * 1000 - 100) {
        const n = await b.evaluate(() => window.gridlag.attempts());
        if (n !== 1) fail(`the refused page tried again after ${Date.now() - refusedAt} ms, before the ${retry} s the server asked`);
        await sleep(100);
      }
      step(`it makes no second attempt within the ${retry} s the server asked`);
      await ask('release'); // ada leaves: room for bea
      await b.waitForFunction(() => window.gridlag.player(), null, { timeout: 60000 }).catch(async () => fail(`the refused page never joined once there was room: ${JSON.stringify(await message(b))}`));
      await screenHas(b, 'you (');
      const tries = await b.evaluate(() => window.gridlag.attempts());
      step(`once the first tab left, the refused page joined by itself (attempt ${tries})`);

      // 1001: the server stops: the page says the server went away and
      // waits before it tries again.
      await ask('close-refuse');
      await messageHas(b, 'The server went away');
      const gone = await b.evaluate(() => window.gridlag.closes().at(-1));
      if (gone.code !== 1001) fail(`the page's socket closed with ${JSON.stringify(gone)} when the server stopped, want 1001`);
      const n = await b.evaluate(() => window.gridlag.attempts());
      await sleep(3000);
      if ((await b.evaluate(() => window.gridlag.attempts())) !== n) fail('the page tried again within 3 s of the server going away');
      step(`a server that stops: the page says ${JSON.stringify(await message(b))} (close 1001), and waits`);
      await ctxA.close();
    }

    // 1008: a page the server refuses for what it did (here, more
    // messages than the operator allows a second) says why and never
    // tries again by itself.
    {
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const p = await join(ctx, flood, 'fay');
      await screenHas(p, 'you (');
      for (let i = 0; i < 40 && (await p.evaluate(() => window.gridlag.closes().length)) === 0; i++) {
        await p.keyboard.press(i % 2 ? 'ArrowRight' : 'ArrowLeft');
        await sleep(20);
      }
      await messageHas(p, 'refused this page');
      const c = await p.evaluate(() => window.gridlag.closes());
      if (c[0].code !== 1008) fail(`the page was closed with ${JSON.stringify(c)}, want 1008`);
      await sleep(5000);
      if ((await p.evaluate(() => window.gridlag.attempts())) !== 1) fail('the page refused for a policy tried again by itself');
      if (shots) await p.screenshot({ path: shots + '/refused-1008.png' });
      step(`a policy refusal: ${JSON.stringify(await message(p))} (close 1008), no second attempt in 5 s`);
      await ctx.close();
    }

    // Text, never HTML: a name with markup is shown as the characters
    // typed, in the server's refusal.
    {
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const p = await join(ctx, play, '<img src=x onerror=window.pwned=1>');
      await messageHas(p, 'refused the name');
      const said = await p.textContent('#message');
      const html = await p.evaluate(() => document.getElementById('message').querySelectorAll('*').length + (window.pwned ? 100 : 0));
      if (!said.includes('<img src=x') || html !== 0) fail(`the refusal of a name with markup: ${JSON.stringify(said)}, ${html} elements`);
      step(`a name with markup comes back as text: ${JSON.stringify(said)}`);
      await ctx.close();
    }

    // A tab that stops drawing: frozen (as a browser freezes a background
    // tab), it draws and acknowledges nothing; the server keeps at most a
    // frame or two in flight for it, whatever happens in the game
    // meanwhile (bob joins), and once it resumes it shows the present.
    {
      const ctx = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
      const p = await join(ctx, play, 'cid');
      await playing(p);
      const before = JSON.parse(await ask('stats'));
      const cdp = await ctx.newCDPSession(p);
      await cdp.send('Page.setWebLifecycleState', { state: 'frozen' });
      const bob = await ask('bob'); // a player joins and moves while the tab is frozen
      const during = JSON.parse(await ask('stats'));
      await sleep(1000);
      await cdp.send('Page.setWebLifecycleState', { state: 'active' });
      await screenHas(p, 'bob');
      const after = JSON.parse(await ask('stats'));
      step(`a frozen tab: ${bob}; server in flight at most ${after.MaxInFlight} bytes, ${after.Skipped} writes left out, ${after.Redraws} whole redraws; after it resumed, it shows bob`);
      if (after.MaxInFlight > 64 << 10) fail(`the server had ${after.MaxInFlight} bytes in flight for one page, over 64 KB`);
      if (during.Skipped === before.Skipped || after.Redraws === during.Redraws) fail(`no write was left out for the frozen tab, or no redraw after (${JSON.stringify(before)} -> ${JSON.stringify(during)} -> ${JSON.stringify(after)})`);
      if (p.problems.length) fail('the page reported errors:\n' + p.problems.join('\n'));

      // A paste holding ESC [ 201 ~ then arrows' sequences (bracketed
      // paste smuggling: the game asks for bracketed pastes, and ignores
      // them): the arrows do not move the avatar; a key pressed does.
      const at = async () => (await lines(p)).join('\n').match(/you \(([0-9]+),([0-9]+)\)/).slice(1).map(Number);
      const [x, y] = await at();
      await p.evaluate(() => {
        const dt = new DataTransfer();
        dt.setData('text/plain', 'x\x1b[201~\x1b[C\x1b[C');
        document.querySelector('.xterm-helper-textarea').dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
      });
      await sleep(1000);
      const [x2, y2] = await at();
      if (x2 !== x || y2 !== y) fail(`a paste with ESC[201~ and arrows moved the avatar: (${x},${y}) -> (${x2},${y2})`);
      await p.keyboard.press('ArrowRight');
      await screenHas(p, `you (${x + 1},${y})`);
      step(`a paste of "x ESC[201~ ESC[C ESC[C" (the arrows smuggled past the paste's end) leaves the avatar at (${x},${y}); ArrowRight then moves it to (${x + 1},${y})`);
      await ctx.close();
    }

    // Keepalive: the network drops the socket silently (the Go test's
    // proxy stops passing anything, closing nothing): the page says so
    // after its keepalive time and tries again; the server ends its
    // session after its own.
    {
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const p = await join(ctx, dead, 'dan');
      await playing(p);
      await ask('blackhole');
      const t0 = Date.now();
      await messageHas(p, 'no word from the server', (keepalive + 30) * 1000);
      const pageSecs = (Date.now() - t0) / 1000;
      const serverSecs = await ask('dead-session-gone');
      if (shots) await p.screenshot({ path: shots + '/keepalive.png' });
      step(`a socket the network dropped silently: the page says ${JSON.stringify(await message(p))} after ${pageSecs.toFixed(1)} s, the server ended the session after ${serverSecs} s (keepalive ${keepalive} s)`);
      await ctx.close();
    }

    // A phone: 390x844, touch. The font shrinks until the whole board
    // fits; the touch arrows move, zap zaps, lag + raises the latency.
    {
      const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
      const p = await join(ctx, play, 'eve');
      await screenHas(p, 'you (');
      let size, font, rows;
      await p
        .waitForFunction((min) => {
          const g = window.gridlag;
          const r = g.lines();
          const run = Math.max(0, ...r.map((l) => Math.max(0, ...(l.match(/█+/g) || []).map((x) => x.length))));
          return g.size().cols >= min.cols && g.size().rows >= min.rows && run >= 10 && r.some((l) => l.includes('you (')) && !r.some((l) => l.includes('too small'));
        }, { cols: 76, rows: 24 }, { timeout: 15000 })
        .catch(() => {});
      [size, font, rows] = [await p.evaluate(() => window.gridlag.size()), await p.evaluate(() => window.gridlag.font()), await lines(p)];
      if (size.cols < 76 || size.rows < 24 || rows.some((l) => l.includes('too small')) || wallRun(rows) < 10) fail(`on a phone the terminal is ${size.cols}x${size.rows} (font ${font}), no whole board:\n${rows.join('\n')}`);
      const box = await p.locator('.xterm-screen').boundingBox();
      const pad = await p.locator('#touch').boundingBox();
      if (!pad || box.x < 0 || box.x + box.width > 390.5 || box.y + box.height > pad.y + 0.5) fail(`the terminal ${JSON.stringify(box)} is not all in the window above the touch controls ${JSON.stringify(pad)}`);
      step(`a phone: the terminal is ${size.cols}x${size.rows} at font ${font}px, all of it in the window, the touch controls below`);
      // 30 taps: 300 ms, so that a zap waits in the ledger long enough to see.
      for (let i = 0; i < 30; i++) await p.tap('#touch button[data-key="+"]');
      await screenHas(p, '/lag [1-9][0-9][0-9]ms/');
      const at = async () => (await lines(p)).join('\n').match(/you \(([0-9]+),([0-9]+)\)/).slice(1).map(Number);
      const [x, y] = await at();
      // (Left first: the cell right of the spawn may hold the avatar an
      // earlier tab left, kept for its player's return.)
      await p.tap('#touch button.left');
      await screenHas(p, `you (${x - 1},${y})`);
      await p.tap('#touch button.right');
      await screenHas(p, `you (${x},${y})`);
      step(`touch: lag + raises the latency, ◀ moves from (${x},${y}) to (${x - 1},${y}), ▶ back`);
      await p.tap('#touch button.zap');
      await screenHas(p, '/#[0-9]+ +zap/');
      step('touch: zap zaps (the zap pending in the ledger)');
      if (shots) await p.screenshot({ path: shots + '/phone.png' });
      if (p.problems.length) fail('the page reported errors:\n' + p.problems.join('\n'));
      await ctx.close();
    }
});
