// Package client is gridlag's client: it predicts its own player's moves,
// reconciles them with the authoritative server, and interpolates the other
// players in the past.
//
// Core is the sans-I/O state machine: it is fed server messages and key
// presses with an explicit now, and hands back the messages to send. Conn is
// the thin adapter that runs a Core over TCP on the wall clock, with an
// injected latency (package link) between the Core and the socket. Both give
// interfaces a View through the Session interface.
package client
