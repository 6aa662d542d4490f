// The spectator's page (/spectate, /spectate/NAME) is a projector: a
// class reads it on a wall. The server draws it as it does in a
// terminal (its board scaled to the window, the round's clock, the
// scoreboard, the student the teacher follows: package tui's
// projector), so this page only picks the terminal's font: large enough
// that the terminal is about PROJECTOR_COLS x PROJECTOR_ROWS (the size
// the screen is laid out for, its text readable from the back of a
// room) on a big window, never smaller than the page's own size on a
// small one. Everything else stays the player's page's.

// The terminal a projector's window is fitted to.
export const PROJECTOR_COLS = 160;
export const PROJECTOR_ROWS = 45;

// PROJECTOR_NAME is the name a projector watches under when the browser
// keeps none: a spectator's name is only for the server's log.
export const PROJECTOR_NAME = 'projector';

// isProjector reports whether the page at path is a spectator's.
export function isProjector(path) {
  return /^\/spectate(\/|$)/.test(path);
}

// fitFont sets the terminal's font size for a projector's window: the
// largest at which the terminal still has PROJECTOR_COLS x PROJECTOR_ROWS
// cells, but never below base (the page's own size). fit is the
// terminal's FitAddon; the caller fits the terminal after. A cell's
// size follows the font's, so one measurement at base says it.
export function fitFont(term, fit, base) {
  if (term.options.fontSize !== base) term.options.fontSize = base;
  const d = fit.proposeDimensions();
  if (!d || !d.cols || !d.rows) return;
  const size = Math.floor(base * Math.min(d.cols / PROJECTOR_COLS, d.rows / PROJECTOR_ROWS));
  if (size > base) term.options.fontSize = size;
}
