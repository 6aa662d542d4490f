package client

import (
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// ranked is the room's scoreboard as the latest Ranking gave it
// (protocol version 4 to a player, 6 to a spectator): the Ranking, its
// players' names (the previous Ranking's, for those it does not name
// again), the last round's winner's name, and when it came. A player's
// Core and a Spectator keep one.
type ranked struct {
	last       *protocol.Ranking
	names      map[grid.PlayerID]protocol.PlayerInfo
	winnerName string
	at         time.Duration
}

// take takes Ranking m, arriving at now.
func (r *ranked) take(now time.Duration, m *protocol.Ranking) {
	names := make(map[grid.PlayerID]protocol.PlayerInfo, len(m.Players))
	for _, p := range m.Players {
		info, ok := r.names[p.ID]
		if p.Named || !ok {
			info = known(protocol.PlayerInfo{ID: p.ID, Color: p.Color, Name: p.Name})
		}
		names[p.ID] = info
	}
	switch {
	case m.Winner == 0:
		r.winnerName = ""
	case m.WinnerName != "":
		r.winnerName = protocol.SanitizeName(m.WinnerName)
	}
	r.last, r.names, r.at = m, names, now
}

// forget forgets the names: a new connection's first Ranking names
// everyone again.
func (r *ranked) forget() { r.names = nil }

// name returns the name of player id as the Ranking gave it, "" if none.
func (r *ranked) name(id grid.PlayerID) string { return r.names[id].Name }

// lines is the scoreboard of the latest Ranking, in its order: each
// player's rank is one more than those listed with more points (the
// best are listed), the recipient's (me, 0 for a spectator) the
// Ranking's.
func (r *ranked) lines(me grid.PlayerID) []ScoreLine {
	m := r.last
	lines := make([]ScoreLine, 0, len(m.Players))
	for i, p := range m.Players {
		info := r.names[p.ID]
		l := ScoreLine{ID: p.ID, Name: info.Name, Color: info.Color, Bot: p.Bot, Me: me != 0 && p.ID == me, Frozen: p.Frozen, Points: int(p.Points), Rank: 1}
		for _, q := range m.Players[:i] {
			if q.Points > p.Points {
				l.Rank++
			}
		}
		if l.Me {
			l.Rank = int(m.Rank)
		}
		lines = append(lines, l)
	}
	return lines
}

// round returns the round in play, its time left at now and the last
// round's winner (nil if none yet).
func (r *ranked) round(now time.Duration) (round int, left time.Duration, winner *Winner) {
	m := r.last
	left = max(time.Duration(m.LeftMS)*time.Millisecond-(now-r.at), 0)
	if m.Winner != 0 {
		winner = &Winner{Name: r.winnerName, Points: int(m.WinnerPoints)}
	}
	return int(m.Round), left, winner
}
