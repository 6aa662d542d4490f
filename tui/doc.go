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
// a small terminal, down to 80x24.
//
// Drawing is incremental: a frame is drawn on an off-screen canvas and
// reaches the terminal only if it differs from the last one shown, and
// then only the cells that changed are sent; frames are paced at most 60
// per second. So an idle player costs no bytes and a one-cell move of one
// player costs a few dozen, which matters to players connected over SSH.
//
// Three more screens run on the same loop: LabScreen (RunLab), the three
// boards of `gridlag lab` with the strips of messages in flight between
// them, over a LabModel that package lab implements (with the server's
// lag compensation switch and the last zap it judged, a LabZap);
// SpectateScreen (RunSpectate), the server's view of a real server for a
// spectator (ServerBoard draws a client.WorldView for both); and
// LobbyScreen (RunLobby), a server's rooms, which hands the terminal to
// the game's screen once a room is joined; and TeachScreen (RunTeach), a
// teacher's: the room's board as a spectator's, beside a panel of the
// room's Conditions (the students' network, the switches held for
// everyone, the update rate and lag compensation, each a widget) and of
// every student's reported round trip, pending inputs and corrections. A
// student's screen says what the teacher set (the top line, a row under
// its latency slider, "teacher" beside a held switch, and why a press of
// one changes nothing).
//
// # One house for the screens
//
// Every screen embeds screenBase, as tview's primitives embed *tview.Box,
// and writes only what it shows (Frame, drawing through the base's show)
// and when that changes (nextChange, signals). The base holds the
// presenter, the screen's key table bound to the screen (HandleKey; any
// key leaves a screen whose session is over), the help overlay of that
// table (? and Esc, a click closes it), quitting (q and Ctrl-C,
// QuitAsked), the notice of a terminal too small (fits) and the widgets
// of the last frame (HandleMouse). The teacher's and the replay's
// screens (TeachScreen, ReplayScreen) embed it too, as a new screen (a
// lesson) will; the overlays over a screen are the base's too: the help,
// drawn from its show, and the instruments (below).
//
// Every key of a screen is in its one table of bindings, in one shape for
// every screen (keyTable, labKeyTable, spectateKeyTable, lobbyKeyTable,
// teachKeyTable, replayKeyTable): the base's handler does what it says,
// its help overlay lists it, and gridlag -help prints it (KeyHelp,
// LabKeyHelp, LobbyKeyHelp, SpectateKeyHelp, TeachKeyHelp,
// ReplayKeyHelp); the bottom line and the panels' key hints read it too.
// A row may belong to a state of its screen (the lobby's typing of a
// room's name), whose keys work only then; the help heads them with it.
// The help and quit rows are every table's (helpBinding, quitBinding).
//
// The controls of the game's panel and of the lab's panels are the same
// widgets, tview primitives that take the mouse in their rectangle: a
// checkbox for each of the client's toggles (listed once, in toggles), a
// Slider for a link's durations (a track in the game's panel, steps in
// the lab's narrower ones) and buttons. A screen draws them through its
// controls (a panel through its own), which hand a mouse action to the
// widget under the pointer, or to the one holding the mouse (a drag); a
// key table's keys call the same functions.
//
// The instruments (instruments.go) are overlays over the board and panel
// of the game and over the boards of the lab, kept by the screen base
// (screenBase.tools) with their keys in both tables (instrumentBinding, t
// g b; smoothBinding, m): the waterfall of the last inputs' lives
// (waterfall.go), the net graph (netgraph.go) and the latency budget
// (budget.go), each a function of a rectangle and what package client
// measured, which the base takes only while one is open. The board draws
// a correction along the way it moved the avatar, and the avatar where
// smoothing slides it (View.Shown).
//
// Run is the entry point: one event loop, on the caller's goroutine, owns
// the interface's state, on a Clock that tests replace by a virtual one.
// It reads the terminal's events from the screen's own queue, and what
// takes a round trip (a lobby's calls) is the model's to make on its own
// side (LobbyModel; tcp.AsyncLobby makes them on goroutines of its own),
// signalling a channel the loop selects on: the package starts no
// goroutine and takes no lock (TestStartsNoGoroutine). A screen draws one
// frame synchronously with Frame and takes input through HandleKey and
// HandleMouse, so tests can drive it without a real terminal.
package tui
