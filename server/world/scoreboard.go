package world

import (
	"cmp"
	"slices"
	"time"

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
		if cl == nil || cl.away || cl.version >= 4 {
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

// tellRankings sends each player of version 4 (not an away one) its
// Ranking: the round, the players online, its rank, the last round's
// winner by name, and the ScoreboardTop best players and itself, most
// points first, however far away they are; and each spectator of
// version 6 (protocol.FollowSince) the room's, its Rank 0. A name goes
// only to a client the previous Ranking did not give it to (see
// protocol.Ranking), so that a scoreboard that changes a score costs
// what Scores does.
func (c *Core) tellRankings(now time.Duration) {
	v4 := false
	for _, cl := range c.slots {
		v4 = v4 || cl != nil && cl.version >= 4 && !cl.away
	}
	for _, s := range c.spectators {
		v4 = v4 || s.version >= protocol.FollowSince
	}
	if !v4 {
		return
	}
	head, top := c.rankTop(now)
	for _, cl := range c.slots {
		if cl == nil || cl.away || cl.version < 4 {
			continue
		}
		c.tellRanking(cl, head, top)
	}
	for _, s := range c.spectators {
		if s.version >= protocol.FollowSince {
			c.tellRanking(s, head, top)
		}
	}
}

// tellWatcherRanking sends spectator s, if of version 6, the room's
// Ranking at now, as it begins to watch.
func (c *Core) tellWatcherRanking(now time.Duration, s *client) {
	if s.version >= protocol.FollowSince {
		head, top := c.rankTop(now)
		c.tellRanking(s, head, top)
	}
}

// rankTop ranks the room's players at now (each one's order and place)
// and returns what every Ranking says (Rank aside) and the best players
// every one lists.
func (c *Core) rankTop(now time.Duration) (protocol.Ranking, []*client) {
	c.ranking = c.ranking[:0]
	for _, cl := range c.slots {
		if cl != nil {
			c.ranking = append(c.ranking, cl)
		}
	}
	slices.SortFunc(c.ranking, func(a, b *client) int {
		return cmp.Or(cmp.Compare(b.points, a.points), cmp.Compare(a.player, b.player))
	})
	for i, cl := range c.ranking {
		cl.order, cl.place = i, i+1
		if i > 0 && cl.points == c.ranking[i-1].points {
			cl.place = c.ranking[i-1].place
		}
	}
	top := c.ranking[:min(len(c.ranking), ScoreboardTop)]
	if len(c.ranking) <= ScoreboardTop+1 {
		top = c.ranking
	}
	return protocol.Ranking{
		Round:        uint16(min(c.stats.Rounds+1, 65535)),
		LeftMS:       uint32(max(c.roundEnd-now, 0) / time.Millisecond),
		Online:       uint16(min(c.count, 65535)),
		Winner:       c.winner.ID,
		WinnerPoints: uint16(min(c.winner.Points, 65535)),
	}, top
}

// tellRanking sends cl, a player or a spectator, its Ranking: head, the
// best players top, and a player below them last, at its place.
func (c *Core) tellRanking(cl *client, head protocol.Ranking, top []*client) {
	r := head
	player := cl.phase != phaseWatching
	if player {
		r.Rank = uint16(min(cl.place, 65535))
	}
	if r.Winner != 0 && cl.toldWinner != c.stats.Rounds {
		r.WinnerName, cl.toldWinner = c.winnerName, c.stats.Rounds
	}
	r.Players = make([]protocol.RankEntry, 0, len(top)+1)
	for _, p := range top {
		r.Players = append(r.Players, c.rankEntry(cl, p))
	}
	if player && cl.order >= len(top) { // below the top: last, at its place
		r.Players = append(r.Players, c.rankEntry(cl, cl))
	}
	cl.ranked = cl.ranked[:0]
	for _, e := range r.Players {
		cl.ranked = append(cl.ranked, c.slots[e.ID])
	}
	c.send(cl.conn, &r)
}

// rankEntry is p's entry in the Ranking to cl, named unless the Ranking
// before listed p.
func (c *Core) rankEntry(cl, p *client) protocol.RankEntry {
	e := protocol.RankEntry{ID: p.player, Bot: p.bot, Frozen: p.frozenUntil != 0, Points: uint16(min(p.points, 65535))}
	if !slices.Contains(cl.ranked, p) {
		e.Named, e.Color, e.Name = true, p.info.Color, p.info.Name
	}
	return e
}
