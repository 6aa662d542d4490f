package record

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"gridlag/grid"
)

// The kinds of recordings (Header.Kind).
const (
	KindScenario = "scenario" // gridlag scenario -record
	KindLab      = "lab"      // gridlag lab -record
	KindGame     = "game"     // gridlag -record, or an SSH player's record session
)

// Header is a recording's settings: everything a replay needs besides the
// events. Exactly one of Scenario, Lab and Game is set, as Kind says.
type Header struct {
	Kind    string `json:"kind"`
	Gridlag string `json:"gridlag,omitempty"` // the version that wrote it
	Created string `json:"created,omitempty"` // RFC 3339, when it started
	// Map is the map's rows ('#' wall, '.' floor); none for a game,
	// whose map comes in its Welcome.
	Map      []string  `json:"map,omitempty"`
	Scenario *Scenario `json:"scenario,omitempty"`
	Lab      *Lab      `json:"lab,omitempty"`
	Game     *Game     `json:"game,omitempty"`
}

// Player is one player of a scenario or a lab: where it starts and its
// link. Loss is a probability from 0 to 1.
type Player struct {
	Name    string   `json:"name,omitempty"`
	Start   [2]int   `json:"start"`
	Latency Duration `json:"latency"`
	Jitter  Duration `json:"jitter"`
	Loss    float64  `json:"loss"`
	// Preset names the lab player's link preset at the start, if any.
	Preset string `json:"preset,omitempty"`
	// Presses is the lab player's script (the scenario syntax, as
	// -presses takes it); a scenario's presses are events.
	Presses string `json:"presses,omitempty"`
	// Trace is the trace file the player's link followed from the start
	// (see link.Trace), whole, "" for none; TraceAt the trace's time at
	// the start (a lab's may start into it).
	Trace   string   `json:"trace,omitempty"`
	TraceAt Duration `json:"trace_at,omitempty"`
	// The lab player's switches at the start.
	Predict     bool `json:"predict"`
	Reconcile   bool `json:"reconcile"`
	Interpolate bool `json:"interpolate"`
}

// Scenario is the settings of `gridlag scenario`: its players (the first
// whose view the timeline follows, an optional rival), the seed of the
// jitter and loss, the server's numbers and the client's switches.
type Scenario struct {
	Players   []Player `json:"players"`
	Seed      int64    `json:"seed"`
	MoveTime  Duration `json:"move_time"`
	Rate      int      `json:"rate"`
	Predict   bool     `json:"predict"`
	Reconcile bool     `json:"reconcile"`
	// Interpolate is the clients' interpolation of others.
	Interpolate bool     `json:"interpolate"`
	LagComp     bool     `json:"lagcomp"`
	Unlag       Duration `json:"unlag"`
	Protect     Duration `json:"protect"`
	Until       Duration `json:"until"`
	// Link is the transport: "" or "tcp", or "datagram".
	Link string `json:"link,omitempty"`
}

// Lab is the settings of `gridlag lab`: its two players, the server's
// numbers and the clock's speed at the start.
type Lab struct {
	Players  [2]Player `json:"players"`
	Seed     int64     `json:"seed"`
	MoveTime Duration  `json:"move_time"`
	Rate     int       `json:"rate"`
	Speed    string    `json:"speed"`
	LagComp  bool      `json:"lagcomp"`
	Unlag    Duration  `json:"unlag"`
	Protect  Duration  `json:"protect"`
}

// Game is the settings of a player's client in a real game: its name and
// room, the server it played on, its injected link and that link's seed,
// and its switches at the start.
type Game struct {
	Name        string   `json:"name"`
	Room        string   `json:"room,omitempty"`
	Server      string   `json:"server,omitempty"`
	Latency     Duration `json:"latency"`
	Jitter      Duration `json:"jitter"`
	Loss        float64  `json:"loss"`
	Seed        int64    `json:"seed"`
	Predict     bool     `json:"predict"`
	Reconcile   bool     `json:"reconcile"`
	Interpolate bool     `json:"interpolate"`
	// Ping is the client's ping interval (0: the client's default).
	Ping Duration `json:"ping,omitempty"`
	// Trace is the trace file the player's injected link followed from
	// the start (see link.Trace), whole, "" for none.
	Trace string `json:"trace,omitempty"`
}

// check refuses a header a replay could not use.
func (h *Header) check() error {
	n := 0
	for _, set := range []bool{h.Scenario != nil, h.Lab != nil, h.Game != nil} {
		if set {
			n++
		}
	}
	var ok bool
	switch h.Kind {
	case KindScenario:
		ok = h.Scenario != nil && len(h.Scenario.Players) >= 1 && len(h.Scenario.Players) <= 2
	case KindLab:
		ok = h.Lab != nil
	case KindGame:
		ok = h.Game != nil
	default:
		return fmt.Errorf("header: unknown kind %q", h.Kind)
	}
	if !ok || n != 1 {
		return fmt.Errorf("header: a %s recording without its settings", h.Kind)
	}
	if len(h.Map) > 0 {
		if _, err := h.GridMap(); err != nil {
			return fmt.Errorf("header: %w", err)
		}
	}
	return nil
}

// GridMap returns the header's map; nil, nil when it has none.
func (h *Header) GridMap() (*grid.Map, error) {
	if len(h.Map) == 0 {
		return nil, nil
	}
	return grid.ParseMap(strings.Join(h.Map, "\n"))
}

// MapRows returns the rows of m, as Header.Map holds them.
func MapRows(m *grid.Map) []string {
	if m == nil {
		return nil
	}
	return strings.Split(strings.TrimRight(m.String(), "\n"), "\n")
}

// Duration is a time.Duration written as Go writes it ("250ms") in JSON.
type Duration time.Duration

// MarshalJSON writes d as a string.
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// UnmarshalJSON reads a string as time.ParseDuration does.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("a duration is a string such as \"250ms\": %w", err)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// D returns the time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// allows refuses an event that is not of the header's kind of recording:
// a scenario's holds presses and zaps of its players; a lab's, its live
// actions (the lab's own by Nobody, a player's by Player 1 or 2); a
// game's, the calls of its player's client driver and the checks of its
// view, all by Player 1. No recording holds a Loss: the lab changes loss
// with its presets, and a game's link is set by its header.
func (h *Header) allows(e Event) error {
	switch h.Kind {
	case KindScenario:
		if (e.Kind == Press || e.Kind == Zap) && h.Scenario != nil && int(e.Who) < len(h.Scenario.Players) {
			return nil
		}
	case KindLab:
		switch e.Kind {
		case Sync, Step, Pause, Resume, Speed, Rate, LagComp:
			if e.Who == Nobody {
				return nil
			}
		case Press, Zap, Predict, Reconcile, Interpolate, Latency, Jitter, Preset, Spike:
			if e.Who == Player1 || e.Who == Player2 {
				return nil
			}
		}
	case KindGame:
		switch e.Kind {
		case Press, Zap, Predict, Reconcile, Interpolate, Latency, Jitter,
			Deliver, Hangup, Update, Sent, Drop, Disconnect, Reconnect, Close, Check:
			if e.Who == Player1 {
				return nil
			}
		}
	}
	who := fmt.Sprintf("Player %d", int(e.Who)+1)
	if e.Who == Nobody {
		who = "the lab"
	}
	return fmt.Errorf("%v by %s, which a %s recording does not hold", e.Kind, who, h.Kind)
}
