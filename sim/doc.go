// Package sim runs gridlag's real server core and real client cores over
// simulated links on a virtual clock. Every message is encoded to its wire
// frame and decoded again, as over TCP; only the sockets and the wall clock
// are replaced. Same inputs, same seed: same timeline, to the nanosecond.
//
// The scenario command prints its timelines, the tests replay the
// articles' examples with it, and interfaces are tested against its clients,
// which implement client.Session.
package sim
