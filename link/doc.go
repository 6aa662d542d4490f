// Package link simulates the network between a client and the server: a
// latency added to every message, a random jitter on top, and no
// reordering, as on a TCP connection.
//
// A Line carries messages one way; a Link pairs two lines and splits a
// round-trip latency evenly between them, like a ping. Lines are sans-I/O:
// they hold messages with their delivery times and hand them back when asked
// at a given moment, so the same code runs on a virtual clock in tests and
// the scenario command, and on the wall clock in the TCP client.
package link
