package grid

import "fmt"

// BeamRange is how many cells a zap's beam reaches.
const BeamRange = 8

// Stop says why a beam ended where it did.
type Stop uint8

// The ends of a beam.
const (
	StopPlayer Stop = iota // it reached another player, who is tagged
	StopWall               // a wall or the map's edge is in the way
	StopRange              // it ran its BeamRange cells and met nobody
)

// String names the end of a beam in a few words.
func (s Stop) String() string {
	switch s {
	case StopPlayer:
		return "a player"
	case StopWall:
		return "a wall"
	case StopRange:
		return "out of range"
	}
	return fmt.Sprintf("Stop(%d)", uint8(s))
}

// Beam is the path of one zap: it leaves From (the shooter's cell, not part
// of the beam) towards Dir and covers Len cells.
type Beam struct {
	From   Pos
	Dir    Dir
	Len    int      // cells covered, 0 to BeamRange (the target's cell included)
	Stop   Stop     // why it ended
	Target PlayerID // the player it reached when Stop is StopPlayer, 0 otherwise
}

// Cells appends the cells the beam covers, nearest first, to dst.
func (b Beam) Cells(dst []Pos) []Pos {
	p := b.From
	for range b.Len {
		p = p.Add(b.Dir)
		dst = append(dst, p)
	}
	return dst
}

// End returns the last cell the beam covers (the target's cell when it
// reached a player), or From for a beam of no cells.
func (b Beam) End() Pos {
	dx, dy := b.Dir.Delta()
	return Pos{b.From.X + dx*b.Len, b.From.Y + dy*b.Len}
}

// Trace follows a beam on map m from the cell from towards d, at most
// BeamRange cells, and stops at the first wall (or the map's edge) or at the
// first of targets standing on it. The targets are whatever positions the
// caller wants the beam tested against: the server passes the other players
// rewound to the moment the shooter saw, the client those it draws. A target
// on the cell from is ignored, so the shooter may be in the list.
func Trace(m *Map, from Pos, d Dir, targets []PlayerPos) Beam {
	b := Beam{From: from, Dir: d, Stop: StopRange}
	if !d.Valid() {
		b.Stop = StopWall
		return b
	}
	p := from
	for b.Len < BeamRange {
		p = p.Add(d)
		if m.Wall(p) {
			b.Stop = StopWall
			return b
		}
		b.Len++
		for _, t := range targets {
			if t.Pos == p {
				b.Stop, b.Target = StopPlayer, t.ID
				return b
			}
		}
	}
	return b
}
