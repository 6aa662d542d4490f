package lab

import (
	"time"

	"gridlag/grid"
)

// ServerPlayer is one player as the server has it, for the server's board
// line `NAME (x,y) ack #N`.
type ServerPlayer struct {
	ID    grid.PlayerID
	Name  string
	Color uint8
	Pos   grid.Pos
	// Ack is the last input the server processed for the player.
	Ack uint32
	// RTT is the player's round trip, once measured (HasRTT).
	RTT    time.Duration
	HasRTT bool
}

// ServerPlayers appends the lab's players as the server has them now,
// Player 1 first, to dst. A player the server does not have (its
// connection ended) is left out.
//
// Until the server core lists its players itself, the position comes from
// the core, the ack from the inputs the lab saw the server process, and
// the round trip from the client's own measure.
func (l *Lab) ServerPlayers(dst []ServerPlayer) []ServerPlayer {
	for i, p := range l.players {
		pos, ok := l.world.Position(p.Client)
		if !ok {
			continue
		}
		v := p.View()
		dst = append(dst, ServerPlayer{
			ID: v.Me, Name: p.Name(), Color: color(i), Pos: pos,
			Ack: l.acks[p.Client], RTT: v.RTT, HasRTT: v.RTT > 0,
		})
	}
	return dst
}

// color is the colour the lab asks for player i (0 for Player 1).
func color(i int) uint8 { return uint8(i + 1) }
