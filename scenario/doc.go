// Package scenario replays a timeline of key presses on gridlag's real
// server and client cores over a simulated link on a virtual clock (package
// sim), and reports every moment something changed: what the player sees,
// where the server has the player, and which inputs are still pending. It is
// the engine of the `gridlag scenario` command, which reproduces Gambetta's
// examples number for number.
package scenario
