// The page of gridlag -web: a terminal (xterm.js) sized to the window,
// joined to the game's session on the server by a WebSocket. The server
// draws the whole interface, as it does over SSH; the page sends the keys,
// the mouse and the terminal's size, and keeps the player's name and
// identity in the browser so that a reload comes back as the same player.
import { Terminal } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import '@xterm/xterm/css/xterm.css';
import './style.css';
import { isProjector, fitFont, PROJECTOR_NAME } from './projector.js';

const NAME_KEY = 'gridlag.name';
const CODE_KEY = 'gridlag.code'; // the class code, kept for this tab (sessionStorage)
const ID_KEY = 'gridlag.id';
const FLUSH_MS = 16; // input is gathered for at most a frame
const RESIZE_MS = 100; // a window being dragged sends its size this often at most
const ACK_MS = 50; // what was drawn is acknowledged this often at most
const BASE_FONT = 15;
const MIN_FONT = 6; // the smallest font the page shrinks to
const data = document.body.dataset;
const maxMessage = Number(data.maxMessage) || 4096;
const keepaliveMs = (Number(data.keepalive) || 30) * 1000;
const minCols = Number(data.minCols) || 76;
const minRows = Number(data.minRows) || 24;
const projector = isProjector(location.pathname);

// store is localStorage, or a page-long stand-in where the browser keeps
// nothing (a reload then starts afresh).
const store = (() => {
  try {
    const k = 'gridlag.test';
    localStorage.setItem(k, k);
    localStorage.removeItem(k);
    return localStorage;
  } catch {
    const m = new Map();
    return { getItem: (k) => (m.has(k) ? m.get(k) : null), setItem: (k, v) => m.set(k, String(v)) };
  }
})();

// identity is the browser's: 128 random bits, made once and kept. The
// server keeps a dropped player's avatar for it, as for an SSH key.
function identity() {
  let id = store.getItem(ID_KEY);
  if (!/^[0-9a-f]{32}$/.test(id || '')) {
    const b = new Uint8Array(16);
    crypto.getRandomValues(b);
    id = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
    store.setItem(ID_KEY, id);
  }
  return id;
}

// The class code the page presents (its teacher's, from the address's
// ?code= or the field beside the name): the server then lets the class
// play in its teacher's room, whatever the school's shared address
// holds already. Kept for this tab only: a code changes with each class.
const codeStore = (() => {
  try {
    sessionStorage.setItem(CODE_KEY, sessionStorage.getItem(CODE_KEY) || '');
    return sessionStorage;
  } catch {
    const m = new Map();
    return { getItem: (k) => (m.has(k) ? m.get(k) : null), setItem: (k, v) => m.set(k, String(v)) };
  }
})();
{
  const fromURL = new URLSearchParams(location.search).get('code');
  if (fromURL !== null) codeStore.setItem(CODE_KEY, fromURL.trim());
}
const classCode = () => (codeStore.getItem(CODE_KEY) || '').trim();

const el = (id) => document.getElementById(id);
const overlay = el('overlay');
const message = el('message');
const form = el('name-form');
const nameInput = el('name');
const codeInput = el('code');
const again = el('again');
const rename = el('rename');
const who = el('who');

const term = new Terminal({
  cursorBlink: false,
  scrollback: 0,
  fontFamily: 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace',
  fontSize: BASE_FONT,
  allowProposedApi: false,
});
const fit = new FitAddon();
term.loadAddon(fit);
term.open(el('terminal'));

let ws = null; // the socket in use
let attempts = 0; // sockets opened, in all (for the tests)
let closes = []; // {code, reason} of each socket's close (for the tests)
let drawn = 0; // the screen's bytes drawn from the socket in use
let ackTimer = null;
let lastHeard = 0; // when the socket in use last brought anything
let keepTimer = null;
let pingN = 0;
let ended = false; // the server said the session ended: no reconnecting
let tries = 0; // reconnections since the last that worked
let timer = null; // the next reconnection
let resumeSecs = 0; // how long the server keeps the avatar after a drop
let pending = []; // input not sent yet
let flushing = null;
let player = null; // {player, name, resumed} once in the game
let joins = 0; // the game sessions this page joined
let lastEnd = null; // the server's last end notice
let refusals = 0; // refusals (1013) and goings away (1001) in a row

function show(text, { form: withForm = false, buttons = false } = {}) {
  message.textContent = text;
  form.hidden = !withForm;
  again.hidden = !buttons;
  rename.hidden = !buttons;
  overlay.hidden = false;
  if (withForm) {
    nameInput.value = store.getItem(NAME_KEY) || '';
    codeInput.value = classCode();
    nameInput.focus();
  }
}

function hide() {
  overlay.hidden = true;
  term.focus();
}

function send(data) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(data);
}

// queue gathers input for at most a frame and sends it in messages the
// server takes (at most maxMessage bytes each).
function queue(bytes) {
  pending.push(bytes);
  if (!flushing) flushing = setTimeout(flush, FLUSH_MS);
}

function flush() {
  flushing = null;
  let n = 0;
  for (const p of pending) n += p.length;
  const all = new Uint8Array(n);
  let at = 0;
  for (const p of pending) {
    all.set(p, at);
    at += p.length;
  }
  pending = [];
  for (let i = 0; i < all.length; i += maxMessage) send(all.subarray(i, i + maxMessage));
}

const encoder = new TextEncoder();
term.onData((d) => queue(encoder.encode(d)));
term.onBinary((d) => queue(Uint8Array.from(d, (c) => c.charCodeAt(0) & 0xff)));

// A paste is text: its control characters (ESC and the C1 controls
// included) are dropped before xterm.js sends it, so that a paste
// holding ESC [ 201 ~ cannot end a bracketed paste early and smuggle
// keys after it, nor hold any other sequence a key would send.
const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
el('terminal').addEventListener(
  'paste',
  (e) => {
    e.preventDefault();
    e.stopImmediatePropagation();
    const text = (e.clipboardData && e.clipboardData.getData('text/plain')) || '';
    term.paste(text.replace(controls, ''));
  },
  true,
);

let resizeTimer = null;
term.onResize(({ cols, rows }) => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => send(JSON.stringify({ cols, rows })), RESIZE_MS);
});
// fitPlayerFont makes the font as large as BASE_FONT, or smaller down to
// MIN_FONT, so that the terminal holds the game's smallest screen
// (minCols x minRows): a phone plays with the whole board in view.
function fitPlayerFont() {
  let size = BASE_FONT;
  for (let i = 0; i < 40; i++) {
    if (term.options.fontSize !== size) term.options.fontSize = size;
    const d = fit.proposeDimensions();
    if (!d || (d.cols >= minCols && d.rows >= minRows) || size <= MIN_FONT) break;
    const scale = Math.min(d.cols / minCols, d.rows / minRows);
    size = Math.max(MIN_FONT, Math.min(size - 0.25, Math.floor(size * scale * 4) / 4));
  }
}
// layout fits the terminal to its box: its font first, grown on a
// projector's big window (projector.js), shrunk on a player's small one.
function layout() {
  if (projector) fitFont(term, fit, BASE_FONT);
  else fitPlayerFont();
  fit.fit();
}
new ResizeObserver(layout).observe(el('terminal'));

function connect() {
  clearTimeout(timer);
  timer = null;
  lastEnd = null;
  const name = store.getItem(NAME_KEY) || (projector ? PROJECTOR_NAME : null);
  if (!name) {
    show('Choose a name to play.', { form: true });
    return;
  }
  layout();
  ended = false;
  attempts++;
  const scheme = location.protocol === 'https:' ? 'wss://' : 'ws://';
  const code = projector ? '' : classCode();
  const sock = new WebSocket(scheme + location.host + '/ws' + (code ? '?code=' + encodeURIComponent(code) : ''));
  sock.binaryType = 'arraybuffer';
  ws = sock;
  let opened = false;
  sock.onopen = () => {
    opened = true;
    term.reset();
    drawn = 0;
    lastHeard = Date.now();
    sock.send(JSON.stringify({ name, id: identity(), path: location.pathname, cols: term.cols, rows: term.rows, flow: true }));
    keepTimer = setInterval(() => keepalive(sock), keepaliveMs / 4);
    hide();
  };
  sock.onmessage = (e) => {
    if (sock !== ws) return;
    lastHeard = Date.now();
    if (typeof e.data !== 'string') {
      const bytes = new Uint8Array(e.data);
      // Acknowledged once drawn: the server sends no more than a frame
      // or two ahead of what this page has drawn.
      term.write(bytes, () => {
        if (sock !== ws) return;
        drawn += bytes.length;
        if (!ackTimer) ackTimer = setTimeout(() => ack(sock), ACK_MS);
      });
      return;
    }
    const n = JSON.parse(e.data);
    if (n.joined) joined(n.joined);
    if (n.end) end(n.end);
  };
  sock.onclose = (e) => {
    clearInterval(keepTimer);
    closes.push({ code: e.code, reason: e.reason });
    if (sock !== ws) return;
    if (closed(e)) return;
    if (ended) return;
    if (opened) dropped();
    else askWhy(sock);
  };
}

// ack tells the server how many of the screen's bytes this page drew.
function ack(sock) {
  ackTimer = null;
  if (sock === ws && sock.readyState === WebSocket.OPEN) sock.send(JSON.stringify({ ack: drawn }));
}

// keepalive pings the server (it answers each), and takes a socket that
// brought nothing for the keepalive time for dead: a network that
// dropped it silently (a NAT, a proxy, a phone that changed networks).
function keepalive(sock) {
  if (sock !== ws) {
    clearInterval(keepTimer);
    return;
  }
  if (Date.now() - lastHeard > keepaliveMs) {
    clearInterval(keepTimer);
    ws = null;
    sock.close();
    dropped(`no word from the server for ${Math.round(keepaliveMs / 1000)} s`);
    return;
  }
  if (sock.readyState === WebSocket.OPEN) sock.send(JSON.stringify({ ping: ++pingN }));
}

// closed does what the server's close code asks, and reports whether it
// did: 1008, a refusal, is said and not tried again; 1013, try again
// later, is said and tried again after the wait it asked, longer each
// time (the end notice before it says the wait, and the reason); 1001 is
// said and tried again slowly.
function closed(e) {
  const why = lastEnd && lastEnd.reason ? lastEnd.reason : e.reason;
  switch (e.code) {
    case 1008:
      ended = true;
      ws = null;
      show(`gridlag refused this page: ${why || 'a message it should not have sent'}.`, { buttons: true });
      return true;
    case 1013: {
      ended = true;
      ws = null;
      refusals++;
      const secs = (lastEnd && lastEnd.retry) || 15;
      wait(secs * 2 ** Math.min(refusals - 1, 4) * (1 + Math.random() / 2), (s) => `gridlag: ${why || 'the server is busy'}. Trying again in ${s} s.`);
      return true;
    }
    case 1001: {
      ended = true;
      ws = null;
      refusals++;
      wait(5 * 2 ** Math.min(refusals - 1, 4) * (1 + Math.random() / 2), (s) => `The server went away${why ? ` (${why})` : ''}. Trying again in ${s} s.`);
      return true;
    }
  }
  return false;
}

// wait shows text(seconds left) until secs seconds have passed, then
// connects again; Play again connects at once.
function wait(secs, text) {
  const until = Date.now() + secs * 1000;
  const tick = () => {
    const left = Math.ceil((until - Date.now()) / 1000);
    if (left <= 0) {
      connect();
      return;
    }
    show(text(left), { buttons: true });
    timer = setTimeout(tick, Math.min(1000, until - Date.now()));
  };
  tick();
}

// askWhy learns why a socket was refused before it opened (a browser
// does not tell the page): the server answers a plain request for it
// 403 and the reason when it refuses the page's host; anything else
// (the server down, restarting) is a drop, tried again.
function askWhy(sock) {
  fetch('/ws', { cache: 'no-store' })
    .then((r) => (r.status === 403 ? r.text() : null))
    .catch(() => null)
    .then((text) => {
      if (sock !== ws || ended) return;
      if (text) refused(text.trim());
      else dropped();
    });
}

// refused shows why the server refuses this page, without trying again
// by itself.
function refused(text) {
  ended = true;
  ws = null;
  show(text, { buttons: true });
}

function joined(j) {
  player = j;
  refusals = 0;
  joins++;
  resumeSecs = j.resume;
  tries = 0;
  who.textContent = `${j.name} · player ${j.player}${j.resumed ? ' · back in the game' : ''}`;
  document.body.dataset.player = String(j.player);
}

function end(e) {
  lastEnd = e;
  if (e.again) return; // the close code that follows says when to try again
  ended = true;
  if (e.name) {
    show(`The server refused the name: ${e.reason}. Choose another.`, { form: true });
    return;
  }
  const text = e.reason === '' ? 'You left the game.' : `gridlag: ${e.reason}`;
  if (/class code/.test(e.reason)) {
    // Wrong or changed: the field beside the name takes the new one.
    show(`${text}.`, { form: true });
    return;
  }
  show(text, { buttons: true });
}

// dropped shows the reconnect screen and tries again, sooner first: the
// server keeps the avatar for the player for a while.
function dropped(why) {
  ws = null;
  tries++;
  const delay = Math.min(5000, 250 * 2 ** (tries - 1)) * (0.75 + Math.random() / 2);
  const keep = resumeSecs > 0 ? ` Your avatar waits for you for ${resumeSecs} s.` : '';
  show(`Connection lost${why ? ` (${why})` : ''}: reconnecting (try ${tries})…${keep}`, { buttons: false });
  again.hidden = false;
  timer = setTimeout(connect, delay);
}

form.addEventListener('submit', (e) => {
  e.preventDefault();
  const name = nameInput.value.trim();
  if (!name) return;
  store.setItem(NAME_KEY, name);
  codeStore.setItem(CODE_KEY, codeInput.value.trim());
  connect();
});
again.addEventListener('click', () => connect());
rename.addEventListener('click', () => show('Choose a name to play.', { form: true }));

// The page's state, for its tests: the terminal's lines and the player.
window.gridlag = {
  lines: () => {
    const b = term.buffer.active;
    const out = [];
    for (let i = 0; i < term.rows; i++) {
      const l = b.getLine(b.viewportY + i);
      out.push(l ? l.translateToString(true, 0, term.cols) : '');
    }
    return out;
  },
  size: () => ({ cols: term.cols, rows: term.rows, font: term.options.fontSize }),
  player: () => player,
  joins: () => joins,
  connected: () => !!ws && ws.readyState === WebSocket.OPEN,
  attempts: () => attempts,
  closes: () => closes,
  font: () => term.options.fontSize,
  code: () => classCode(),
};

// Touch controls, on a touch screen: the arrows and the game's main keys
// as buttons, a held arrow repeating as a held key does.
const touch = el('touch');
if (!projector && (navigator.maxTouchPoints > 0 || matchMedia('(pointer: coarse)').matches)) {
  touch.hidden = false;
  document.body.classList.add('touch');
  const arrows = { up: 'A', down: 'B', right: 'C', left: 'D' };
  const keyBytes = (k) => {
    if (!arrows[k]) return k;
    // As xterm.js sends them: ESC O x in application cursor mode.
    return (term.modes.applicationCursorKeysMode ? '\x1bO' : '\x1b[') + arrows[k];
  };
  for (const b of touch.querySelectorAll('button')) {
    let repeat = null;
    const stop = () => {
      clearTimeout(repeat);
      clearInterval(repeat);
      repeat = null;
    };
    b.addEventListener('pointerdown', (e) => {
      e.preventDefault();
      const k = b.dataset.key;
      queue(encoder.encode(keyBytes(k)));
      if (arrows[k]) repeat = setTimeout(() => (repeat = setInterval(() => queue(encoder.encode(keyBytes(k))), 120)), 350);
    });
    for (const ev of ['pointerup', 'pointercancel', 'pointerleave']) b.addEventListener(ev, stop);
    b.addEventListener('contextmenu', (e) => e.preventDefault());
  }
}

connect();
