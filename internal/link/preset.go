package link

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Preset is a named network condition for a whole link, in one-way figures
// as lightyear gives them: each message takes Delay ± Spread one way, and
// is lost with probability Loss.
type Preset struct {
	// Name is how the preset is looked up.
	Name string
	// Delay is the mean one-way delay.
	Delay time.Duration
	// Spread is how far either side of Delay a one-way delay may fall.
	Spread time.Duration
	// Loss is the probability that a message is lost (and retransmitted).
	Loss float64
}

// Presets returns the named conditions, best first: good (40 ± 6 ms, 0.2 %
// loss), average (170 ± 45 ms, 2 %) and poor (300 ± 84 ms, 4 %).
func Presets() []Preset {
	return []Preset{
		{Name: "good", Delay: 40 * time.Millisecond, Spread: 6 * time.Millisecond, Loss: 0.002},
		{Name: "average", Delay: 170 * time.Millisecond, Spread: 45 * time.Millisecond, Loss: 0.02},
		{Name: "poor", Delay: 300 * time.Millisecond, Spread: 84 * time.Millisecond, Loss: 0.04},
	}
}

// PresetNamed returns the preset called name, or an error that lists the
// names there are.
func PresetNamed(name string) (Preset, error) {
	presets := Presets()
	names := make([]string, len(presets))
	for i, p := range presets {
		if p.Name == name {
			return p, nil
		}
		names[i] = p.Name
	}
	return Preset{}, fmt.Errorf("link: no preset named %q (there are %s)", name, strings.Join(names, ", "))
}

// String says the preset once, as every place shows it: in the link's own
// terms, the round trip a latency slider shows and the jitter each way,
// then lightyear's one-way figures it comes from: "poor: 432ms round trip
// ±168ms, 4% loss (300±84ms one way)".
func (p Preset) String() string {
	return fmt.Sprintf("%s: %s round trip ±%s, %s loss (%d±%dms one way)", p.Name, millis(p.RTT()), millis(p.Jitter()),
		strconv.FormatFloat(100*p.Loss, 'f', -1, 64)+"%", p.Delay.Milliseconds(), p.Spread.Milliseconds())
}

// millis writes d in whole milliseconds, as the screens do: "432ms".
func millis(d time.Duration) string {
	return strconv.FormatInt(d.Round(time.Millisecond).Milliseconds(), 10) + "ms"
}

// RTT returns the round trip that Link.Set takes for the preset: twice the
// shortest one-way delay, Delay − Spread.
func (p Preset) RTT() time.Duration { return 2 * (p.Delay - p.Spread) }

// Jitter returns the jitter that Link.Set takes for the preset: 2 × Spread,
// so that a one-way delay falls evenly between Delay − Spread and
// Delay + Spread, Delay on average.
func (p Preset) Jitter() time.Duration { return 2 * p.Spread }

// Apply sets the link to the preset's round trip, jitter and loss, for
// messages sent from now on. The way down then takes Delay ± Spread per
// message; the way up keeps the spacing of what is sent (see Link), which
// can hold a message up to Delay + Spread but never shortens it.
func (l *Link[Up, Down]) Apply(p Preset) {
	l.Set(p.RTT(), p.Jitter())
	l.SetLoss(p.Loss)
}
