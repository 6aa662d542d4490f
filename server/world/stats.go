package world

// Stats are the Core's counters. The counts (those of type uint64) only grow.
type Stats struct {
	Players     int // players in the world now
	Bots        int // of which bots
	Spectators  int // spectators watching now
	Away        int // of the players, those whose connection dropped, kept for resume
	Connections int // connections the Core knows: from their first message until Disconnect (a connection that has sent nothing yet is the adapter's alone)

	Ticks      uint64 // update ticks (and immediate-mode broadcasts)
	Joins      uint64 // players who joined
	Leaves     uint64 // players who left
	Refused    uint64 // handshakes refused: bad version, bad name, server or spectators full, no Hello or Spectate
	Violations uint64 // joined connections closed for an unexpected message
	Resumes    uint64 // players who came back on a new connection with their resume token

	InputsProcessed uint64 // inputs processed (moves, blocked moves and too-fast ones)
	InputsRefused   uint64 // inputs refused as duplicate or out of order (Seq not above the last)
	Moves           uint64 // processed inputs that moved their player
	Blocked         uint64 // processed inputs blocked by a wall, the map's edge or a player
	TooFast         uint64 // processed inputs over the speed limit (nothing moved)
	Frozen          uint64 // processed moves of a frozen player (nothing moved)

	Zaps     uint64 // zaps processed (they count as inputs too), cooldown and frozen ones included
	Tags     uint64 // zaps that tagged someone
	Respawns uint64 // frozen players who respawned
	Rounds   uint64 // rounds ended

	StatesSent uint64 // State messages produced
	Pongs      uint64 // Pong messages produced
	Pings      uint64 // Ping messages produced, to measure players' round trips
	Overviews  uint64 // Overview messages produced, one per spectator per tick
}
