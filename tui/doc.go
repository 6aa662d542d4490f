// Package tui is the terminal interface of gridlag: a tview/tcell screen
// that draws a client.Session and turns keys and mouse into Session calls.
//
// The screen makes the netcode visible. It shows the board (your predicted
// avatar, a dimmer ghost where the server last placed you, the other players
// and a short-lived mark where a prediction was wrong), a status line with
// both positions and the measured round trip, the ledger of inputs still
// waiting for the server's acknowledgement, a latency slider, and toggles
// for prediction, reconciliation and interpolation.
//
// Drawing is incremental: tcell only sends the cells that changed since the
// last frame, and frames are paced by a clock with a dirty flag (at most 60
// per second), so a one-cell move of one player costs a few dozen bytes,
// which matters to players connected over SSH.
//
// Run is the entry point. UI draws one frame synchronously with Frame and
// takes input through HandleKey and HandleMouse, so tests can drive it on a
// virtual clock without a real terminal.
package tui
