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
const ID_KEY = 'gridlag.id';
const FLUSH_MS = 16; // input is gathered for at most a frame
const RESIZE_MS = 100; // a window being dragged sends its size this often at most
const maxMessage = Number(document.body.dataset.maxMessage) || 4096;
const FONT_SIZE = 15; // the terminal's font, larger on a projector's big window
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

const el = (id) => document.getElementById(id);
const overlay = el('overlay');
const message = el('message');
const form = el('name-form');
const nameInput = el('name');
const again = el('again');
const rename = el('rename');
const who = el('who');

const term = new Terminal({
  cursorBlink: false,
  scrollback: 0,
  fontFamily: 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace',
  fontSize: FONT_SIZE,
  allowProposedApi: false,
});
const fit = new FitAddon();
term.loadAddon(fit);
term.open(el('terminal'));

let ws = null; // the socket in use
let ended = false; // the server said the session ended: no reconnecting
let tries = 0; // reconnections since the last that worked
let timer = null; // the next reconnection
let resumeSecs = 0; // how long the server keeps the avatar after a drop
let pending = []; // input not sent yet
let flushing = null;
let player = null; // {player, name, resumed} once in the game
let joins = 0; // the game sessions this page joined

function show(text, { form: withForm = false, buttons = false } = {}) {
  message.textContent = text;
  form.hidden = !withForm;
  again.hidden = !buttons;
  rename.hidden = !buttons;
  overlay.hidden = false;
  if (withForm) {
    nameInput.value = store.getItem(NAME_KEY) || '';
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

let resizeTimer = null;
term.onResize(({ cols, rows }) => {
  clearTimeout(resizeTimer);
  resizeTimer = setTimeout(() => send(JSON.stringify({ cols, rows })), RESIZE_MS);
});
// layout fits the terminal to its box: a projector's font first.
function layout() {
  if (projector) fitFont(term, fit, FONT_SIZE);
  fit.fit();
}
new ResizeObserver(layout).observe(el('terminal'));

function connect() {
  clearTimeout(timer);
  timer = null;
  const name = store.getItem(NAME_KEY) || (projector ? PROJECTOR_NAME : null);
  if (!name) {
    show('Choose a name to play.', { form: true });
    return;
  }
  layout();
  ended = false;
  const scheme = location.protocol === 'https:' ? 'wss://' : 'ws://';
  const sock = new WebSocket(scheme + location.host + '/ws');
  sock.binaryType = 'arraybuffer';
  ws = sock;
  let opened = false;
  sock.onopen = () => {
    opened = true;
    term.reset();
    sock.send(JSON.stringify({ name, id: identity(), path: location.pathname, cols: term.cols, rows: term.rows }));
    hide();
  };
  sock.onmessage = (e) => {
    if (sock !== ws) return;
    if (typeof e.data !== 'string') {
      tries = 0;
      term.write(new Uint8Array(e.data));
      return;
    }
    const n = JSON.parse(e.data);
    if (n.joined) joined(n.joined);
    if (n.end) end(n.end);
  };
  sock.onclose = () => {
    if (sock !== ws || ended) return;
    if (opened) dropped();
    else askWhy(sock);
  };
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
  joins++;
  resumeSecs = j.resume;
  tries = 0;
  who.textContent = `${j.name} · player ${j.player}${j.resumed ? ' · back in the game' : ''}`;
  document.body.dataset.player = String(j.player);
}

function end(e) {
  ended = true;
  ws = null;
  if (e.name) {
    show(`The server refused the name: ${e.reason}. Choose another.`, { form: true });
    return;
  }
  const text = e.reason === '' ? 'You left the game.' : `gridlag: ${e.reason}`;
  show(text, { buttons: true });
}

// dropped shows the reconnect screen and tries again, sooner first: the
// server keeps the avatar for the player for a while.
function dropped() {
  ws = null;
  tries++;
  const delay = Math.min(5000, 250 * 2 ** (tries - 1)) * (0.75 + Math.random() / 2);
  const keep = resumeSecs > 0 ? ` Your avatar waits for you for ${resumeSecs} s.` : '';
  show(`Connection lost: reconnecting (try ${tries})…${keep}`, { buttons: false });
  again.hidden = false;
  timer = setTimeout(connect, delay);
}

form.addEventListener('submit', (e) => {
  e.preventDefault();
  const name = nameInput.value.trim();
  if (!name) return;
  store.setItem(NAME_KEY, name);
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
};

connect();
