package lab

import (
	"gridlag/grid"
	"gridlag/tui"
)

// LagComp reports whether the server compensates lag when it judges a
// zap (the server controls' switch).
func (l *Lab) LagComp() bool { return l.world.LagComp() }

// SetLagComp turns the server's lag compensation on or off live.
func (l *Lab) SetLagComp(on bool) { l.world.SetLagComp(on) }

// LastZap returns the last zap the server judged, as the server's board
// draws it (who shot, what it did, where the shooter saw the target, how
// far back the server looked); ok is false before any. Each player's own
// side (the result it read, the tag it suffered) is in its View: LastZap,
// LastTagged.
func (l *Lab) LastZap() (z tui.LabZap, ok bool) {
	rec, ok := l.world.LastZap()
	if !ok {
		return z, false
	}
	return tui.LabZap{
		At: rec.At - l.origin, Shooter: l.name(rec.Shooter), Outcome: rec.Outcome, Target: l.name(rec.Target),
		Seen: rec.Seen, Judged: rec.Judged, Rewind: rec.Rewind, Beam: rec.Beam.Cells(nil),
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
