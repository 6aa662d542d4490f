// Package admit is what every front end does at its door, before a
// connection is a player's: the game port (package server), SSH (sshd)
// and the browser (web) each use it, the way they use ratelog, and none
// may depend on another.
//
//   - Key is the address a connection counts as in every cap per address:
//     an IPv4 address, an IPv6 /64 (one host commonly holds a whole /64);
//     Host is its IP, for the log.
//   - Pool counts what a front end holds (open connections, handshakes,
//     sessions) in all and per address: a fair pool (NewPool) keeps its
//     last quarter for addresses holding few, so that no few addresses
//     can lock the others out; a pool of caps (NewCaps) has no reserve.
//     Slots is a Pool safe for concurrent use that words its refusals.
//   - Refusal is why a connection is turned away, a kind for the counters
//     and the log's summaries and a sentence for the peer; Refuse logs it
//     (summarised per address and kind), tells the peer in the front
//     end's own words and closes the connection.
//   - Attempts is the rate of new connections per address, checked as
//     one arrives, before anything costly (a session, a key exchange):
//     a script reconnecting in a loop is held to it; it remembers a
//     bounded number of addresses.
//   - Listener accepts what its admit function lets in and retries a
//     failed Accept (out of file descriptors, an aborted connection) with
//     a backoff that Close interrupts.
//
// It knows nothing of the game or of any front end's protocol, and
// imports no gridlag package but ratelog and limit.
package admit
