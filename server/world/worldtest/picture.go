// Package worldtest is test support for what a server sends its clients,
// shared by the tests of world, hub and server: a client's picture of the
// players around it, kept as a client keeps it from the States and Leaves
// it is sent, in memory or over TCP; the names of a room list; maps to
// play on.
package worldtest

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"gridlag/grid"
	"gridlag/protocol"
)

// Picture is what one client was told of the players in its area, kept
// as a client keeps it: a full picture replaces it, a State's changes and
// departures and a Leave update it.
type Picture map[grid.PlayerID]grid.Pos

// Take applies m, if it is a State or a Leave.
func (p *Picture) Take(m protocol.Message) {
	switch m := m.(type) {
	case *protocol.State:
		for _, id := range m.Left {
			delete(*p, id)
		}
		if *p == nil || m.Full {
			*p = Picture{}
		}
		for _, q := range m.AllPlayers(nil) {
			(*p)[q.ID] = q.Pos
		}
		for _, id := range m.Gone {
			delete(*p, id)
		}
	case *protocol.Leave:
		delete(*p, m.ID)
	}
}

// Players returns the picture sorted by ID.
func (p Picture) Players() []grid.PlayerPos {
	var ps []grid.PlayerPos
	for _, id := range slices.Sorted(maps.Keys(p)) {
		ps = append(ps, grid.PlayerPos{ID: id, Pos: p[id]})
	}
	return ps
}

// Whole applies st to p and makes st the full picture after it, so that
// a test reads it as a client's view.
func (p *Picture) Whole(st *protocol.State) {
	p.Take(st)
	st.Full, st.Players, st.Gone = true, p.Players(), nil
}

// LeftGame reports whether m tells its recipient that player id left the
// game: a Leave (to a spectator), or a State listing it in Left.
func LeftGame(m protocol.Message, id grid.PlayerID) bool {
	switch m := m.(type) {
	case *protocol.Leave:
		return m.ID == id
	case *protocol.State:
		return slices.Contains(m.Left, id)
	}
	return false
}

// Frame returns m's frame, or stops the test.
func Frame(tb testing.TB, m protocol.Message) []byte {
	tb.Helper()
	b, err := protocol.Marshal(m)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// RoomNames are the names of the rooms a list carries, in order, each in
// brackets: "[] [blue] [red]".
func RoomNames(list *protocol.Rooms) string {
	var names []string
	for _, r := range list.Rooms {
		names = append(names, "["+r.Name+"]")
	}
	return strings.Join(names, " ")
}
