// Package tui is the terminal interface of gridlag: a tview/tcell screen
// that draws a client.Session and turns keys and mouse into Session calls.
//
// The screen makes the netcode visible. It shows the board (your predicted
// avatar, a darker ghost of it where the server last placed you, the other
// players, bots apart, and a short-lived mark where a prediction was
// wrong), a status line with both positions and the measured round trip,
// the ledger of pending inputs (sent, not yet acknowledged by the server),
// a latency slider, and toggles for prediction, reconciliation and
// interpolation.
//
// It is also the game of zap tag: Space zaps, the avatar is an arrow the
// way the player faces, and the player's own beam flashes at once; the
// panel's last section (tagLines) has the round and its clock, the
// server's word on the player's last zap and last tag, a frozen countdown
// (or the spawn protection's, "SAFE") and the room's scoreboard, cut to
// fit down to 80x24 on a map of any height, and the board shows a round's
// winner for a while; a player under spawn protection is underlined on
// every board. A point, a tag, a freeze or a protection shows only from
// what the server said (netcode-notes section 3). Names line up by the
// columns they take on screen (padText), wide characters included.
//
// Board and Panel are tview primitives that draw any client's view into
// any rectangle; UI lays them out for one player (see arrange): one block
// centred on the screen, two columns a board cell when they fit, one on
// a small terminal, down to 80x24. Every
// key is in one table, which the key handler, the help overlay and
// KeyHelp (for gridlag -help) read.
//
// Drawing is incremental: a frame is drawn on an off-screen canvas and
// reaches the terminal only if it differs from the last one shown, and
// then only the cells that changed are sent; frames are paced at most 60
// per second. So an idle player costs no bytes and a one-cell move of one
// player costs a few dozen, which matters to players connected over SSH.
//
// Two more screens run on the same loop: LabScreen (RunLab), the three
// boards of `gridlag lab` with the strips of messages in flight between
// them, over a LabModel that package lab implements (with the server's
// lag compensation switch and the last zap it judged); and SpectateScreen
// (RunSpectate), the server's view of a real server for a spectator.
// ServerBoard draws a client.WorldView for both.
//
// The instruments (instruments.go) are overlays over the board and panel
// of the game and the lab, each a key in their key tables: the waterfall
// of the last inputs' lives (waterfall.go), the net graph (netgraph.go)
// and the latency budget (budget.go), each a function of a rectangle and
// what package client measured, which a screen takes only while one is
// open. The board draws a correction along the way it moved the avatar,
// and the avatar where smoothing slides it (View.Shown).
//
// Run is the entry point: one event loop owns the interface's state, on a
// Clock that tests replace by a virtual one. UI draws one frame
// synchronously with Frame and takes input through HandleKey and
// HandleMouse, so tests can drive it without a real terminal.
package tui
