// Package replay plays gridlag's recordings (package record) again, on
// the same deterministic cores that made them, and with one thing
// changed: the engine of `gridlag replay`.
//
// A scenario's recording is its settings and presses: Play runs the
// scenario again (its timeline is the scenario's, byte for byte). A
// lab's is its settings, scripts and every live action: the lab is
// rebuilt and the actions are made again through its own model, at the
// recorded moments of its world (RecordLab records them). A game's is
// the player's side: the bytes read from the socket with their times,
// the keys, the driver's steps; a new client driver takes the same calls
// (client.Driver.Apply) and goes through the same views, which Play
// checks against the recording's.
//
// A what-if (Changes) feeds the same inputs at the same times through a
// changed setup: the client's switches, the link, the server's rate or
// lag compensation, or the transport (a simulated datagram link,
// sim.Datagram). Compare marks where the changed run differs from the
// recording. A game's client-side change replays the recorded messages
// exactly; a change of the network or the server simulates the game
// anew, the other players walking where the recording saw them.
//
// A replay walks the recording's events as it plays (record.Cursor),
// holding its place, not the events; a seek back plays again from the
// start. A recording whose run would look at more than MaxWork states
// and actions is refused before it is played.
//
// Model is a recording on the replay's screen (tui.ReplayModel): a clock
// with a speed, play, pause, step and seek (to a time, or to the next
// zap, correction or loss), the recording's run as a ghost beside the
// changed one. WriteSVG draws a run as a sequence diagram.
package replay
