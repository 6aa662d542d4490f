package lab

import (
	"cmp"
	"slices"
	"strings"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/lab/sim"
	"gridlag/protocol"
	"gridlag/tui"
)

// Model returns the lab as the lab's screen sees it (a tui.LabModel).
func (l *Lab) Model() tui.LabModel { return screenLab{l} }

// screenLab is a Lab as a tui.LabModel.
type screenLab struct{ *Lab }

// Speed names the clock's speed.
func (s screenLab) Speed() string { return s.Lab.Speed().String() }

// SlowDown goes to the next slower speed, and to 1x after the slowest.
func (s screenLab) SlowDown() { s.SetSpeed(s.Lab.Speed().Next()) }

// Scores returns the round's scoreboard as the server has it, most points
// first, then by player.
func (s screenLab) Scores() []client.ScoreLine {
	var lines []client.ScoreLine
	for _, e := range s.world.Server().Scoreboard(nil) {
		lines = append(lines, client.ScoreLine{ID: e.ID, Name: s.name(e.ID), Bot: e.Bot, Frozen: e.Frozen, Points: int(e.Points)})
	}
	slices.SortStableFunc(lines, func(a, b client.ScoreLine) int { return cmp.Compare(b.Points, a.Points) })
	return lines
}

// Player returns player i (0 for Player 1) as the screen sees it.
func (s screenLab) Player(i int) tui.LabPlayer { return screenPlayer{s.players[i], s.Lab, i} }

// Restart plays the script again from t=0 (see Lab.Restart); a lab that
// cannot be built again (it was built once) says why in the caption.
func (s screenLab) Restart() {
	if err := s.Lab.Restart(); err != nil {
		s.caption = "restart: " + err.Error()
	}
}

// screenPlayer is a Player as a tui.LabPlayer: the screen's presses go
// to a lesson that waits for one too.
type screenPlayer struct {
	*Player
	lab *Lab
	i   int
}

// Press presses a direction key for the player.
func (p screenPlayer) Press(d grid.Dir) {
	p.Player.Press(d)
	p.lab.pressed(p.i, pressKey(d, false))
}

// Zap presses the player's zap key.
func (p screenPlayer) Zap() {
	p.Player.Zap()
	p.lab.pressed(p.i, pressKey(grid.None, true))
}

// InFlight appends the messages on the player's link to dst, those going
// up first, each labelled for a strip; the background traffic only while
// the strips show it (see Lab.SetPings).
func (p screenPlayer) InFlight(dst []tui.Flight) []tui.Flight {
	for _, way := range []sim.Way{sim.Up, sim.Down} {
		for _, f := range p.Player.InFlight(way, nil) {
			if p.lab.pings || !isBackground(f.Type) {
				dst = append(dst, ScreenFlight(f, way == sim.Up))
			}
		}
	}
	return dst
}

// ScreenFlight converts a message in flight for a strip: a datagram lost
// for good is drawn lost.
func ScreenFlight(f sim.Flight, up bool) tui.Flight {
	out := tui.Flight{Up: up, Progress: f.Progress, Lost: f.Lost, Held: f.Held, Waiting: f.Waiting, Resending: f.Resending}
	if f.Dropped {
		out.Lost = max(out.Lost, 1)
	}
	switch f.Type {
	case protocol.TypeInput:
		out.Kind, out.Seq, out.Dir = tui.FlightInput, f.Seq, f.Dir
	case protocol.TypeState:
		out.Kind, out.Ack = tui.FlightState, f.Ack
	case 0:
		out.Name = "end" // the end of the stream
	default:
		out.Name = strings.ToLower(f.Type.String())
	}
	return out
}
