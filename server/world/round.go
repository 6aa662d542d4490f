package world

import (
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// due does what the clock asks at now: frozen players whose time is up
// respawn, and a round that is over ends and the next begins; the
// scoreboard goes out if that changed it, before the States that show the
// respawns, so that a client knows a move is a respawn. Every call of the Core that has
// a time does it first, so in immediate mode (no Tick) it happens at the
// next message or Ping.
func (c *Core) due(now time.Duration) {
	if c.roundEnd == 0 {
		c.roundEnd = now + c.cfg.Round
	}
	thawed := c.thaw(now)
	ended := false
	for now >= c.roundEnd {
		c.endRound()
		ended = true
	}
	if thawed || ended {
		c.tellScores(now)
	}
	if thawed && c.cfg.Rate == 0 {
		c.broadcast(now) // a respawn is news for everyone
	}
}

// periodic is due for Ping, which the adapter calls every ping interval
// whatever the update rate: it also sends the scoreboard a join or a leave
// changed. A join's or a leave's own answer, and the States of a tick,
// stay what they were; the scoreboard follows within a ping interval.
func (c *Core) periodic(now time.Duration) {
	c.due(now)
	if c.stale {
		c.tellScores(now)
	}
}

// endRound names the round's winner, resets every score and starts the
// next round.
func (c *Core) endRound() {
	c.scores = c.scores[:0]
	for _, cl := range c.slots {
		if cl != nil {
			c.scores = append(c.scores, grid.Score{ID: cl.player, Points: cl.points})
			cl.points = 0
		}
	}
	w, _ := grid.Winner(c.scores)
	c.winner, c.winnerName = w, ""
	if w.ID != 0 {
		c.winnerName = c.slots[w.ID].info.Name // kept: the winner may leave
	}
	c.stats.Rounds++
	c.roundEnd += c.cfg.Round
}

// Round returns the round in play (1 for the first), when it ends on the
// Core's clock (0 before its first call with a time), and the winner of
// the last round (ID 0 if none).
func (c *Core) Round() (round int, ends time.Duration, last grid.Score) {
	return int(c.stats.Rounds) + 1, c.roundEnd, c.winner
}

// Scoreboard appends every player's score in the round in play, frozen
// or not, sorted by ID, to dst (at most protocol.MaxScorePlayers).
func (c *Core) Scoreboard(dst []protocol.ScoreEntry) []protocol.ScoreEntry {
	for _, cl := range c.slots {
		if cl != nil && len(dst) < protocol.MaxScorePlayers {
			dst = append(dst, c.scoreOf(cl))
		}
	}
	return dst
}

// tellScores sends every player the scoreboard and the round: a player of
// version 4 its Ranking (see tellRankings), one of version 3 its Scores,
// all of it while it is short, else the best and the recipient (see
// ScoreboardTop).
func (c *Core) tellScores(now time.Duration) {
	c.stale = false
	c.tellRankings(now)
	s := &protocol.Scores{
		Round:        uint16(min(c.stats.Rounds+1, 65535)),
		LeftMS:       uint32(max(c.roundEnd-now, 0) / time.Millisecond),
		Winner:       c.winner.ID,
		WinnerPoints: uint16(min(c.winner.Points, 65535)),
	}
	if c.count > ScoreboardTop+1 {
		c.tellTopScores(s)
		return
	}
	s.Players = c.Scoreboard(nil)
	for _, cl := range c.slots {
		if cl != nil && !cl.away && cl.version < 4 {
			c.send(cl.conn, s)
		}
	}
}
