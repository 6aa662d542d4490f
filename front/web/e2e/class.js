// A class behind one address, in a real browser (node class.js URL CODE):
// 40 pages, each its own browser (a context: its own identity), from one
// address. The Go test TestBrowserClassCode (front/web/classcode_test.go)
// starts a server with its defaults and a teacher whose class code is
// CODE, and runs this. It prints what it saw and exits 1 at the first
// thing that is wrong.
'use strict';
const { ask, step, fail, drive } = require('./lib');

const [base, firstCode] = process.argv.slice(2);
const CLASS = Number(process.env.CLASS_SIZE) || 40;
const PER_ADDR = Number(process.env.PER_ADDR) || 16; // the server's -web-per-addr
const viewport = { width: 720, height: 460 };

// you is where the page's screen says the player is, "(x,y)", or null.
const you = (page) => page.evaluate(() => (window.gridlag.lines().join('\n').match(/you (\(\d+,\d+\))/) || [])[1] || null);

// open opens a page of a new browser context at path and plays as name:
// the name form, with the code field as the address filled it.
async function open(browser, path, name) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error(`${name}: the page reported ${e.message}`));
  // A page that did not load on a busy machine is loaded again, as a
  // student would.
  for (let tries = 1; ; tries++) {
    try {
      await page.goto(base + path, { timeout: 120000 });
      await page.waitForSelector('#name', { state: 'visible', timeout: 120000 });
      break;
    } catch (e) {
      if (tries === 3) fail(`${name}: the page did not load: ${e.message}`);
    }
  }
  await page.fill('#name', name);
  await page.click('#name-form button[type=submit]');
  return { context, page, name };
}

// outcome waits until the page plays (its player) or shows why it
// cannot (the overlay's message), and says which.
async function outcome(p, timeout = 60000) {
  await p.page
    .waitForFunction(() => (window.gridlag.player() && /you \(/.test(window.gridlag.lines().join('\n'))) || (!document.getElementById('overlay').hidden && /gridlag/.test(document.getElementById('message').textContent)), null, { timeout, polling: 250 })
    .catch(() => fail(`${p.name}: neither played nor was refused within ${timeout / 1000} s`));
  const player = await p.page.evaluate(() => window.gridlag.player());
  return player ? { plays: true, player } : { plays: false, why: await p.page.textContent('#message') };
}

// played is outcome, but a page whose session the busy machine let time
// out (its game client's Hello late, a silent socket) is played again
// with its Play again button, as a student would, twice at most.
async function played(p) {
  for (let tries = 0; ; tries++) {
    const out = await outcome(p);
    if (out.plays || tries === 2 || !/no Hello within|silent for|Connection lost/.test(out.why)) return out;
    console.error(`${p.name}: ${out.why}: played again`);
    const n = await p.page.evaluate(() => window.gridlag.attempts());
    await p.page.click('#again');
    await p.page.waitForFunction((n) => window.gridlag.attempts() > n, n, { timeout: 60000 });
  }
}

// walk has each page's player move: a crowd at the spawn blocks some
// until others moved away, so each round presses one arrow on every page
// that has not moved yet (another arrow each round), and the pages whose
// player's place changed are done. It returns a move for each page.
async function walk(pages) {
  const keys = ['ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp'];
  const from = await Promise.all(pages.map((p) => you(p.page)));
  const moved = new Array(pages.length).fill(null);
  for (let round = 0; round < 12 && moved.includes(null); round++) {
    const left = pages.map((p, i) => i).filter((i) => moved[i] === null);
    await batches(left, (i) => pages[i].page.keyboard.press(keys[(round + i) % keys.length]));
    await new Promise((r) => setTimeout(r, 1500));
    const at = await Promise.all(left.map((i) => you(pages[i].page)));
    left.forEach((i, k) => {
      if (at[k] && at[k] !== from[i]) moved[i] = `${from[i]} -> ${at[k]}`;
    });
  }
  const stuck = pages.filter((p, i) => moved[i] === null).map((p) => p.name);
  if (stuck.length) fail(`${stuck.length} players never moved: ${stuck.join(' ')}`);
  return moved;
}

// batches runs f on each of xs, a few at a time (a busy machine).
async function batches(xs, f, n = 8) {
  const out = [];
  for (let i = 0; i < xs.length; i += n) {
    out.push(...(await Promise.all(xs.slice(i, i + n).map(f))));
    if (process.env.CLASS_PROGRESS) step(`${out.length} of ${xs.length}`);
  }
  return out;
}

drive(async (browser) => {
  const names = Array.from({ length: CLASS }, (_, i) => `s${String(i + 1).padStart(2, '0')}`);

  // The class, with the code in the address the teacher's screen shows.
  const withCode = await batches(names, (n) => open(browser, `/?code=${encodeURIComponent(firstCode)}`, n));
  const results = await batches(withCode, (p) => played(p));
  const refused = results.map((r, i) => [names[i], r]).filter(([, r]) => !r.plays);
  if (refused.length) fail(`${refused.length} of the class were refused with the code: ${JSON.stringify(refused.slice(0, 3))}`);
  const ids = new Set(results.map((r) => r.player.player));
  if (ids.size !== CLASS) fail(`${ids.size} distinct players for ${CLASS} pages`);
  step(`${CLASS} pages from one address with the code ${firstCode} all play (players ${Math.min(...ids)}..${Math.max(...ids)})`);
  const walks = await walk(withCode);
  step(`each of the ${CLASS} moves, e.g. ${walks[0]}, ${walks[CLASS - 1]}`);
  const inRoom = Number(await ask('players'));
  if (inRoom !== CLASS) fail(`the teacher's room has ${inRoom} players, want the ${CLASS}`);
  step(`the teacher's room has the ${CLASS} players`);

  // The teacher changes the code: the old one lets nobody more in, the
  // class plays on.
  const newCode = await ask('new code');
  if (newCode === firstCode) fail('the code did not change');
  const late = await open(browser, `/?code=${encodeURIComponent(firstCode)}`, 'late');
  const lateOut = await outcome(late);
  if (lateOut.plays || !/unknown class code/.test(lateOut.why)) fail(`the old code after a new one: ${JSON.stringify(lateOut)}`);
  if (await late.page.isHidden('#code')) fail('a refused code does not offer the code field again');
  step(`the old code is refused once the teacher asks a new one (${newCode}): ${JSON.stringify(lateOut.why)}; the page offers the code field`);
  // The student types the new code into the field and plays.
  await late.page.fill('#code', newCode.toLowerCase());
  const tries = await late.page.evaluate(() => window.gridlag.attempts());
  await late.page.click('#name-form button[type=submit]');
  await late.page.waitForFunction((n) => window.gridlag.attempts() > n && document.getElementById('overlay').hidden, tries, { timeout: 60000 });
  const lateIn = await outcome(late);
  if (!lateIn.plays) fail(`the new code typed into the field: ${JSON.stringify(lateIn)}`);
  step('the new code, typed in small letters into the field, plays');
  if (Number(await ask('players')) !== CLASS + 1) fail('the class did not stay in when the code changed');
  step(`the ${CLASS} already in stay`);

  const wrong = await open(browser, '/?code=class-ZZZZZZ', 'guess');
  const wrongOut = await outcome(wrong);
  if (wrongOut.plays || !/unknown class code/.test(wrongOut.why)) fail(`a wrong code: ${JSON.stringify(wrongOut)}`);
  step(`a wrong code is refused: ${JSON.stringify(wrongOut.why)}`);
  if (process.env.GRIDLAG_SHOTS) await wrong.page.screenshot({ path: process.env.GRIDLAG_SHOTS + '/wrong-code.png' });

  for (const p of [...withCode, late, wrong]) await p.context.close();
  const deadline = Date.now() + 60000;
  while (Number(await ask('players')) > 0) {
    if (Date.now() > deadline) fail('the class never left');
    await new Promise((r) => setTimeout(r, 500));
  }

  // The same class without the code: held to the address's sessions.
  const without = await batches(names, (n) => open(browser, '/', n));
  const outs = await batches(without, (p) => played(p));
  const playing = outs.filter((r) => r.plays).length;
  const whys = outs.filter((r) => !r.plays).map((r) => r.why);
  if (playing !== PER_ADDR || whys.length !== CLASS - PER_ADDR) fail(`without the code ${playing} played and ${whys.length} were refused, want ${PER_ADDR} and ${CLASS - PER_ADDR}`);
  const bad = whys.filter((w) => !w.includes(`too many sessions from your address (${PER_ADDR})`));
  if (bad.length) fail(`refused pages without the reason: ${JSON.stringify(bad.slice(0, 3))}`);
  step(`without the code, ${PER_ADDR} play and ${whys.length} are refused, each saying ${JSON.stringify(whys[0])}`);
  if (process.env.GRIDLAG_SHOTS) await without[CLASS - 1].page.screenshot({ path: process.env.GRIDLAG_SHOTS + '/no-code.png' });
  for (const p of without) await p.context.close();
}, ['--renderer-process-limit=4']);
