// Package lab is the model behind `gridlag lab`: Gambetta's three views
// (Player 1, the server, Player 2) on gridlag's real cores, without the
// drawing. A Lab is a sim.World with two players on a clock that follows
// the wall clock times a speed factor (1x, 1/2, 1/4, 1/10), which can be
// paused and stepped one event at a time; it plays scripted presses (the
// scenario syntax) at their virtual times, gives each player's link its
// latency, jitter, loss, preset and lag spikes, and lists the messages in
// flight each way, for the strips between the boards.
//
// Model gives the lab as a tui.LabModel, which the lab's screen draws;
// cmd/gridlag imports it. It imports sim, client, link, scenario,
// server/world, protocol, grid and tui (for the LabModel it implements;
// tui never imports lab). A Lab is used from one goroutine, the screen's
// event loop: it is not safe for concurrent use.
package lab
