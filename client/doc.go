// Package client is gridlag's client: it predicts its own player's moves,
// reconciles them with the authoritative server, and interpolates the other
// players in the past. It plays zap tag by the articles' rule: a zap is an
// input like a move and its beam shows at once, but a tag, a point or a
// freeze shows only when the server says so.
//
// The package is sans-I/O: it imports no net, os or sync and never reads
// the clock (a test in cmd/gridlag holds it to that). Core (a player) and
// Spectator are state machines fed with server messages and key presses
// with an explicit now; each call leaves in the outbox (Outbox, a Batch)
// the messages to send and notes of what happened (Note: a message
// arrived and whether it corrected the prediction, a held press went, a
// phase was entered). Driver (and SpectatorDriver) runs a core over an
// injected latency (package link) on a clock its caller gives: bytes from
// the transport in, the frames due to be written out, when to step next,
// and the core's notes to an observer. It owns no channel, goroutine or
// clock: package client/tcp runs it over TCP on the wall clock and wakes
// its readers from the notes; package sim runs it on a virtual clock.
// Both give interfaces a View through the Session interface.
//
// A Core also keeps the instruments an interface draws (Instruments,
// through the Instrumented interface): the life of every input from key
// press to reconciliation (InputLife, noted as Lived when its
// acknowledging State is reconciled), with the server's stages once it
// asked for them (SetTrace, protocol.Trace and protocol.Stages), mapped
// to the client's clock; a net graph second by second (NetGraph); the
// corrections by Cause; the latency budget (Budget); and smoothing of
// corrections (SetSmooth, View.Shown).
//
// # Lifecycle
//
// Phase is where a connection is, and says what its caller may assume. A
// player's Core:
//
//	Handshaking  Hello sent (a Resume with Options.Resume); no map yet,
//	             presses ignored.
//	             → Joining on the Welcome and its map (a big map's
//	             parts follow the Welcome).
//	             → Closed on a refusal, a drop, or the server timeout.
//	Joining      welcomed: the map is drawn, pings go; the first State
//	             has not placed the player, presses are ignored.
//	             → Playing on that State.
//	             → Reconnecting on a drop, if the Welcome gave a token;
//	             else Closed.
//	Playing      on the board: a press goes at once (predicted) or waits
//	             for the speed limit.
//	             → Reconnecting on a drop (the transport's end, a failed
//	             write, or a server silent for the server timeout), if
//	             the Welcome gave a token; else Closed.
//	Reconnecting dropped: the server keeps the avatar for its resume
//	             window, counted from the first of the drops in a row
//	             (one while Resuming or CatchingUp does not restart it).
//	             Presses are numbered, predicted and held (up to the
//	             server's burst). The caller dials again and calls
//	             Resume (Driver.Reconnect).
//	             → Resuming on Resume.
//	             → Closed when the window ends.
//	Resuming     Resume sent on the new connection; presses still held.
//	             → CatchingUp on the Welcome and its map.
//	             → Reconnecting on a drop or a silent server.
//	             → Closed on a refusal (the token is gone).
//	CatchingUp   welcomed again, the same player; presses still held.
//	             → Playing on the first State: it says which inputs the
//	             server has, and every other held one goes, in order,
//	             with its number.
//	             → Reconnecting on a drop.
//	Closed       over; Err says why (ErrClosed: the local side closed).
//
// Any phase goes to Closed on the server's Error or Bye, on Close, and on
// bytes that do not decode. A Spectator has three phases: Handshaking
// (Spectate sent) → Watching (the Spectating and its map are in) →
// Closed (it never reconnects). View.Connected and View.Reconnecting say
// what the phase means to an interface; View.Phase is the phase itself.
package client
