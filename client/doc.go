// Package client is gridlag's client: it predicts its own player's moves,
// reconciles them with the authoritative server, and interpolates the other
// players in the past. It plays zap tag by the articles' rule: a zap is an
// input like a move and its beam shows at once, but a tag, a point or a
// freeze shows only when the server says so.
//
// Core is the sans-I/O state machine: it is fed server messages and key
// presses with an explicit now, and hands back the messages to send. Driver
// runs a Core over an injected latency (package link) on a clock its caller
// gives: bytes from the transport in, the frames due to be written out, and
// when to step next. Conn is the thin adapter that runs a Driver over TCP on
// the wall clock; package sim runs the same Driver on a virtual clock. Both
// give interfaces a View through the Session interface.
//
// A connection that drops is not the end when the server's Welcome gave a
// resume token: the Core waits (phase Reconnecting) while its caller dials
// again, then says Resume and carries on as the same player. While it is
// away its presses are numbered, predicted and held, up to the server's
// burst of them; on the first State after the resume it sends every input
// the server has not acknowledged, in order, so none is lost or applied
// twice. Conn does the dialling by itself, with backoff.
package client
