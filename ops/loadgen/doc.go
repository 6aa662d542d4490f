// Package loadgen drives many light players from one process, to measure a
// gridlag server under load.
//
// A light player is no client core and no view: it opens a connection, says
// Hello (as a bot, so that names such as load-1 are allowed), walks at the
// speed limit (a random walk that turns at walls, guessing its cell from
// the map and its own moves), answers the server's Pings and reads every
// frame with the protocol decoder (which expands an idle State's step from
// the State before it). From each State it reads only the head:
// the tick, the server time and the acknowledgement. Each acknowledged input
// gives a round trip, from the moment it was written to the arrival of the
// first State acknowledging it. So the figures it reports do not depend on
// what the rest of a State carries, and stay right when States carry less
// (the player list is read once, to find where the player starts).
//
// Connections are read by one goroutine each; inputs are written by a few
// writer goroutines, each walking its share of the players on one ticker,
// rather than a timer per player, so that the generator stays light next to
// the server it measures. The Summary reports its own CPU time too.
//
// The package imports protocol and grid only: it plays over the wire like
// any client, but shares no code with client, tui or server.
package loadgen
