package bot

import "gridlag/client"

// Client is what a bot plays through: a client session that also reports
// what it measured. *tcp.Conn is one, on the wall clock; a client on a
// simulated link can be another, on a virtual clock.
type Client interface {
	client.Session
	// Stats returns the client's running totals.
	Stats() client.Stats
	// Bytes returns the bytes that came from the server and went to it.
	Bytes() (in, out int64)
}
