// Package link simulates the network between a client and the server: a
// latency added to every message, a random jitter on top, and no
// reordering, as on a TCP connection. Loss is as TCP has it: a lost
// message is retransmitted after a timeout and everything sent after it
// waits (head-of-line blocking); a stall is a lag spike that releases its
// backlog at once. Named presets set all of it from one-way figures.
//
// A Line carries messages one way; a Link pairs two lines and splits a
// round-trip latency evenly between them, like a ping. Lines are sans-I/O:
// they hold messages with their delivery times and hand them back when asked
// at a given moment, so the same code runs on a virtual clock in tests and
// the scenario command, and on the wall clock in the TCP client. A viewer
// can list the messages on a line while they travel (see Line.InFlight).
//
// A trace (trace.go, docs/traces.md) is a network that changes over
// time: a small text file of time-stamped changes of each way's one-way
// delay, jitter and loss, and stalls, parsed strictly (ParseTrace). A
// Link follows one (Link.Follow), each step applied at its own time
// whatever the clock; a few are bundled (BundledTraces), each built
// from published figures that its header cites.
package link
