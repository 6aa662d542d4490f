// Package scenario replays a timeline of key presses on gridlag's real
// server and client cores over a simulated link on a virtual clock (package
// sim), and reports every moment something changed: what the player sees,
// where the server has the player, and which inputs are still pending. It is
// the engine of the `gridlag scenario` command, which reproduces Gambetta's
// examples number for number. Each input's whole life is a line of its
// own where it ends (InputLine: {"input": {...}} in JSON), and a run ends
// with the latency budget of its first player's moves (BudgetReport),
// with when the second player saw each (measured, a millisecond at a
// time).
package scenario
