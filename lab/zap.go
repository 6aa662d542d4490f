package lab

import (
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// LagComp reports whether the server compensates lag when it judges a
// zap (the server controls' switch).
func (l *Lab) LagComp() bool { return l.world.LagComp() }

// SetLagComp turns the server's lag compensation on or off live.
func (l *Lab) SetLagComp(on bool) { l.world.SetLagComp(on) }

// ServerZap is the last zap the server judged, for the server's panel:
// who shot, what it did, and how far back the server looked. Each
// player's own side (the result it read, the tag it suffered) is in its
// View: LastZap, LastTagged.
type ServerZap struct {
	At      time.Duration // since the lab's start
	Shooter string        // the player's name, as on the boards
	Outcome protocol.ZapOutcome
	Target  string        // the tagged player, or the one seen in line for a miss because it had left; "" if none
	Seen    grid.Pos      // where the shooter saw the target
	Rewind  time.Duration // 0 without lag compensation
	Beam    []grid.Pos    // the beam as the server traced it, nearest first
}

// LastZap returns the last zap the server judged; ok is false before any.
func (l *Lab) LastZap() (z ServerZap, ok bool) {
	rec, ok := l.world.LastZap()
	if !ok {
		return z, false
	}
	return ServerZap{
		At: rec.At - l.origin, Shooter: l.name(rec.Shooter), Outcome: rec.Outcome, Target: l.name(rec.Target),
		Seen: rec.Seen, Rewind: rec.Rewind, Beam: rec.Beam.Cells(nil),
	}, true
}

// name returns the name of the lab's player id, "" if none.
func (l *Lab) name(id grid.PlayerID) string {
	for _, p := range l.players {
		if id != 0 && p.View().Me == id {
			return p.Name()
		}
	}
	return ""
}
