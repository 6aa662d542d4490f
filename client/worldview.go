package client

import (
	"slices"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// WorldView is the server's view of the world, for an interface to draw:
// what a spectator is shown (Spectator.View) and what a lab's "Server"
// board shows, read there straight from the server's core. There is no
// avatar: every player is where the server has them. It shares nothing
// mutable with its source.
type WorldView struct {
	Now time.Duration // the viewer's clock when the view was taken
	// Phase is where a spectator's connection is: Handshaking, Watching
	// or Closed (see Phase); Connected is Watching.
	Phase     Phase
	Connected bool  // the handshake is done and the connection is up
	Err       error // why the connection ended, if it did
	// Notice is the server operator's last notice, such as "server
	// stopping in 10 s"; "" if none.
	Notice string

	Map      *grid.Map     // nil until the map arrives
	Rate     int           // server updates per second (0 = one per processed input)
	MoveTime time.Duration // the speed limit

	Tick uint32        // the server's update tick of this view
	Time time.Duration // the server's time of this view, since it started
	// Total is how many players are in the world: more than len(Players)
	// when the server listed only as many as one message carries.
	Total int
	// Players are the players the server listed, sorted by ID.
	Players []WorldPlayer

	// Teaching is what the room's teachers set, nil while it has none;
	// Reports are, for a teacher, each student's last report, by ID.
	Teaching *Teaching
	Reports  []Report
	// Perception is the room's perception test, nil before the server
	// said anything of it.
	Perception *ClassPerception
	// Traces are, for a teacher, the traces the server offers for the
	// room's network (protocol version 6), in its order: a Teaching's
	// Trace names one.
	Traces []protocol.TraceInfo
	// ClassCode is, for a teacher, its class's code (protocol version
	// 6): students who present it join the room under the room's own
	// cap, not their address's. "" before the server said it.
	ClassCode string
	// Crowd is, for a teacher (protocol version 6), the room's bots and
	// areas of interest and the server's own counters: the scale panel;
	// nil before the server said anything of it.
	Crowd *Crowd

	// The room's scoreboard (to a spectator of protocol version 6, the
	// Ranking a player gets; see View): most points first, the best
	// players, every one in a small room; the players online; the round
	// in play and its time left (0 before the server's first word); the
	// last round's winner, nil if none yet.
	Scoreboard []ScoreLine
	Online     int
	Round      int
	RoundLeft  time.Duration
	LastWinner *Winner

	// Following is the student the room's teacher follows (protocol
	// version 6), 0 for nobody; Sight is what that student last told of
	// itself, nil until it told anything (see follow.go).
	Following grid.PlayerID
	Sight     *Sight
}

// Report returns the last report of player id, if a teacher has one.
func (v WorldView) Report(id grid.PlayerID) (Report, bool) {
	i, ok := slices.BinarySearchFunc(v.Reports, id, func(r Report, id grid.PlayerID) int { return int(r.ID) - int(id) })
	if !ok {
		return Report{}, false
	}
	return v.Reports[i], true
}

// Player returns player id as the view lists it.
func (v WorldView) Player(id grid.PlayerID) (WorldPlayer, bool) {
	i, ok := slices.BinarySearchFunc(v.Players, id, func(p WorldPlayer, id grid.PlayerID) int { return int(p.ID) - int(id) })
	if !ok {
		return WorldPlayer{}, false
	}
	return v.Players[i], true
}

// WorldPlayer is one player as the server sees it.
type WorldPlayer struct {
	ID    grid.PlayerID
	Name  string // sanitised for display
	Color uint8  // palette index from the server
	Bot   bool
	Pos   grid.Pos
	Ack   uint32        // the last input number the server processed for the player
	RTT   time.Duration // the round trip the server measured to the player; see HasRTT
	// HasRTT is false until the server has measured the player's round
	// trip.
	HasRTT bool
	// Protected: under spawn protection (it cannot be tagged yet).
	// Frozen: tagged, waiting to respawn (known to a lab; a spectator of
	// protocol version 6 is told of those its scoreboard lists).
	Protected bool
	Frozen    bool
}
