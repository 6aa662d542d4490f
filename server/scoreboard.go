package server

import (
	"cmp"
	"slices"

	"gridlag/grid"
	"gridlag/protocol"
)

// ScoreboardTop is how many of the best players the Scores of a big world
// list: with more than ScoreboardTop+1 players online, each player's Scores
// lists the ScoreboardTop with the most points (fewest-ID first among
// equals) and the player itself, so that a scoreboard costs each player
// the same few bytes however many play. A smaller world's lists everyone.
const ScoreboardTop = 16

// tellTopScores sends each player (not an away one) head with the best ScoreboardTop players
// and itself, sorted by ID.
func (c *Core) tellTopScores(head *protocol.Scores) {
	all := c.Scoreboard(nil)
	slices.SortFunc(all, func(a, b protocol.ScoreEntry) int {
		return cmp.Or(cmp.Compare(b.Points, a.Points), cmp.Compare(a.ID, b.ID))
	})
	top := all[:ScoreboardTop]
	slices.SortFunc(top, func(a, b protocol.ScoreEntry) int { return cmp.Compare(a.ID, b.ID) })
	for _, cl := range c.slots {
		if cl == nil || cl.away {
			continue
		}
		s := *head
		s.Players = top
		if _, listed := slices.BinarySearchFunc(top, cl.player, func(e protocol.ScoreEntry, id grid.PlayerID) int { return cmp.Compare(e.ID, id) }); !listed {
			s.Players = append(slices.Clip(top), c.scoreOf(cl))
			slices.SortFunc(s.Players, func(a, b protocol.ScoreEntry) int { return cmp.Compare(a.ID, b.ID) })
		}
		c.send(cl.conn, &s)
	}
}

// scoreOf returns cl's line on the scoreboard.
func (c *Core) scoreOf(cl *client) protocol.ScoreEntry {
	return protocol.ScoreEntry{ID: cl.player, Bot: cl.bot, Frozen: cl.frozenUntil != 0, Points: uint16(min(cl.points, 65535))}
}
