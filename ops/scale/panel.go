package scale

import (
	"time"

	"gridlag/tui"
)

// Panel is the lab as the scale lab's screen drives it (tui.RunScale).
func (l *Lab) Panel() tui.ScaleLab { return panel{l} }

// panel adapts a Lab to tui.ScaleLab: its Read gives the screen's
// reading, the rest is the Lab's own.
type panel struct{ *Lab }

// Read implements tui.ScaleLab.
func (p panel) Read(now time.Time) (tui.ScaleReading, error) {
	f, err := p.Lab.Read(now)
	if err != nil {
		return tui.ScaleReading{}, err
	}
	return f.Reading(), nil
}

// Where implements tui.ScaleLab.
func (p panel) Where() string {
	return "play among them: gridlag play " + p.Addr() + "   metrics: " + p.MetricsURL()
}

// Reading is f as the scale lab's screen shows it.
func (f Figures) Reading() tui.ScaleReading {
	return tui.ScaleReading{
		Bots: f.Bots, Players: f.Players, Areas: f.Areas,
		TickMean: seconds(f.TickMean), TickP99: seconds(f.TickP99), Ticks: f.Ticks,
		Writes: f.Writes, BytesPerPlayer: f.BytesPerPlayer(), MessagesPerState: f.MessagesPerState(),
		CPU: f.CPU, RSS: f.RSS, Budget: f.Tick,
	}
}

// seconds is a figure in seconds as a duration; -1 when not measured.
func seconds(s float64) time.Duration {
	if s != s || s > 1e6 { // NaN, +Inf
		return -1
	}
	return time.Duration(s * float64(time.Second))
}
