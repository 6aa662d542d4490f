// Package tcp runs gridlag's client over TCP on the wall clock: the
// adapter between a socket and the sans-I/O client of package client.
//
// Connect (a player, a Conn) and ConnectSpectator (a spectator, a Watch)
// open the connection, through Options.Dial when a front end shares the
// server's process, and run a client.Driver on it: one goroutine reads
// the socket into the driver, another steps the driver and writes what
// is due, sleeping until the next thing is due. The driver's notes wake
// what waits on Changed, log corrections, and start the redials: after a
// drop that the core may resume (it enters client.Reconnecting), the
// adapter dials again with backoff (RedialMin to RedialMax) and
// reconnects the driver on the new connection. If the first bytes show
// that no gridlag server answered, the connection ends at once with a
// ForeignServerError.
//
// ListRooms, HasRooms and Lobby are the blocking calls of a lobby: one
// question, one answer, on a connection of their own. AsyncLobby makes
// a lobby's calls on goroutines of its own, for the lobby's screen, whose
// loop takes the answers when they come.
//
// The front ends use this package (cmd/gridlag, bot, and remote for sshd
// and web); a simulator (package sim) runs the same Driver on a virtual
// clock instead.
package tcp
