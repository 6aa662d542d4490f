package scenario

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/link"
	"gridlag/server/world"
	"gridlag/sim"
)

// Player is one player of a scenario: where it starts, its link and its
// presses.
type Player struct {
	Name    string
	Start   grid.Pos
	Latency time.Duration // injected round trip
	Jitter  time.Duration
	Loss    float64 // probability that a message is lost and retransmitted, as TCP does
	Presses []Press
}

// Config is a whole scenario.
type Config struct {
	Player    Player  // the player whose view the timeline follows
	Second    *Player // an optional second player, e.g. to collide with
	Seed      int64   // drives the jitter
	MoveTime  time.Duration
	Rate      int // server update rate in Hz; 0 = answer each input at once
	Predict   bool
	Reconcile bool
	// LagComp and Unlag are the server's lag compensation, Protect its
	// spawn protection (world.Config).
	LagComp bool
	Unlag   time.Duration
	Protect time.Duration
	// Until is how long the timeline runs after the start; 0 = long enough
	// for every press to be acknowledged.
	Until time.Duration
	// Link is how the players' messages travel: over TCP, as in the game,
	// or (a what-if of the simulator) over datagrams (see sim.Datagram).
	Link sim.Transport
}

// Default returns the article's scenario: (10,10), 250 ms round trip, RIGHT
// at 0 and 100 ms, 100 ms move time, immediate answers, prediction and
// reconciliation on, lag compensation on within world.DefaultUnlag.
func Default() Config {
	return Config{
		Player: Player{Name: "you", Start: grid.DefaultSpawn, Latency: 250 * time.Millisecond,
			Presses: []Press{{At: 0, Dir: grid.Right}, {At: 100 * time.Millisecond, Dir: grid.Right}}},
		Seed: 1, MoveTime: 100 * time.Millisecond, Predict: true, Reconcile: true,
		LagComp: true, Unlag: world.DefaultUnlag,
	}
}

// Line is one moment of the timeline, as the JSON output prints it.
type Line struct {
	TMS     int64    `json:"t_ms"`    // milliseconds since the start
	T       int64    `json:"t_ns"`    // the same, in nanoseconds
	Player  string   `json:"player"`  // whose moment it is
	Event   string   `json:"event"`   // what happened
	Client  [2]int   `json:"client"`  // where the player SEES itself
	Server  [2]int   `json:"server"`  // where the server has the player
	Pending []uint32 `json:"pending"` // unacknowledged input numbers
	Ack     uint32   `json:"ack"`     // the last acknowledged number
	Corr    int      `json:"corrections"`
	Zap     *ZapLine `json:"zap,omitempty"` // the server's judgement, on the line where it judges a zap
	// Link is what a datagram link carried, on the last line of a
	// player over one (see sim.DatagramStats).
	Link *LinkLine `json:"link,omitempty"`
	// Original and Differs compare a replay changed by a what-if with
	// the recording (see Compare): where the original run had the player
	// at the same moment, on a player's last line of a moment, and
	// whether what it sees differs.
	Original *Moment `json:"original,omitempty"`
	Differs  bool    `json:"differs,omitempty"`
}

// Moment is where a player is at a moment: where it sees itself and
// where the server has it.
type Moment struct {
	Client [2]int `json:"client"`
	Server [2]int `json:"server"`
}

// LinkLine is what a player's datagram link carried over the run: the
// inputs sent, the packets that carried them (each repeating every input
// not yet acknowledged) and how many were lost, the copies sent again
// (repeated), the State snapshots and how many were lost or arrived
// after a newer one, and the bytes each way.
type LinkLine struct {
	Transport        string `json:"transport"`
	Inputs           int    `json:"inputs"`
	InputPackets     int    `json:"input_packets"`
	InputPacketsLost int    `json:"input_packets_lost"`
	Repeated         int    `json:"repeated"`
	States           int    `json:"states"`
	StatesLost       int    `json:"states_lost"`
	StatesStale      int    `json:"states_stale"`
	BytesUp          int64  `json:"bytes_up"`
	BytesDown        int64  `json:"bytes_down"`
}

// ZapLine is how the server judged a zap, as the JSON output prints it.
// Players are named as in Line.Player.
type ZapLine struct {
	Shooter  string  `json:"shooter"`
	Hit      bool    `json:"hit"`
	Target   *string `json:"target"` // the tagged player; null for a miss
	RewindMS int64   `json:"rewind_ms"`
}

// Run plays the scenario and returns its timeline.
func Run(cfg Config) ([]Line, error) {
	r, err := RunFull(cfg)
	if err != nil {
		return nil, err
	}
	return r.Lines, nil
}

// Result is a whole run of a scenario: its timeline and every message
// that crossed a link.
type Result struct {
	Lines []Line
	Wires []Wire
	// Players are the players' names, the first the one the timeline
	// follows.
	Players []string
	// End is when the run ended, since its start.
	End time.Duration
}

// RunFull plays the scenario and returns its timeline and its messages.
func RunFull(cfg Config) (*Result, error) {
	if cfg.Player.Name == "" {
		cfg.Player.Name = "you"
	}
	m := grid.DefaultMap()
	starts := []grid.Pos{cfg.Player.Start}
	if cfg.Second != nil {
		if cfg.Second.Name == "" || cfg.Second.Name == cfg.Player.Name {
			cfg.Second.Name = "rival"
		}
		if cfg.Second.Start == cfg.Player.Start {
			return nil, errors.New("scenario: the two players cannot start on the same cell")
		}
		starts = append(starts, cfg.Second.Start)
	}
	for _, s := range starts {
		if m.Wall(s) {
			return nil, fmt.Errorf("scenario: start %v is a wall or off the map", s)
		}
	}
	scfg := world.Config{Spawn: cfg.Player.Start, Spawns: starts[1:], MoveTime: cfg.MoveTime, Rate: cfg.Rate,
		LagComp: cfg.LagComp, Unlag: cfg.Unlag, Protect: cfg.Protect}
	if err := scfg.Validate(); err != nil {
		return nil, err
	}
	w := sim.New(scfg)

	join := func(p *Player) *sim.Client {
		return w.JoinOver(p.Name, client.Options{
			NoPredict: !cfg.Predict, NoReconcile: !cfg.Reconcile,
			Latency: p.Latency, Jitter: p.Jitter, Loss: p.Loss, Seed: cfg.Seed + int64(len(p.Name)),
			PingInterval: time.Hour,
		}, cfg.Link)
	}
	players := []*Player{&cfg.Player}
	clients := []*sim.Client{join(&cfg.Player)}
	if cfg.Second != nil {
		players = append(players, cfg.Second)
		clients = append(clients, join(cfg.Second))
	}
	for i, c := range clients {
		if v := c.View(); v.Err != nil || !v.HasState {
			return nil, fmt.Errorf("scenario: %s could not join: %v", players[i].Name, v.Err)
		}
	}
	tl := NewTimeline(w, clients)
	start := tl.Start()

	type timed struct {
		Press
		c *sim.Client
	}
	var all []timed
	var lastPress, slowest time.Duration // the last press, plus time for held ones; the slowest link
	for i, p := range players {
		for _, pr := range p.Presses {
			all = append(all, timed{pr, clients[i]})
			lastPress = max(lastPress, pr.At+time.Duration(len(p.Presses))*cfg.MoveTime)
		}
		trip := p.Latency + p.Jitter
		if p.Loss > 0 {
			// Room for a message lost twice on the way: retransmitted
			// after the RTO, then after twice it (link's RTO rule).
			trip += 3 * max(link.MinRTO, p.Latency+4*p.Jitter)
		}
		slowest = max(slowest, trip)
	}
	slices.SortStableFunc(all, func(a, b timed) int { return cmp.Compare(a.At, b.At) })
	until := cfg.Until
	if until <= 0 {
		// Long enough for every input, and every state that follows it, to
		// cross the slowest link both ways, and for two update ticks.
		until = lastPress + 2*slowest + 100*time.Millisecond
		if cfg.Rate > 0 {
			until += 2 * time.Second / time.Duration(cfg.Rate)
		}
	}
	for _, p := range all {
		w.AdvanceTo(start + p.At)
		p.On(p.c)
	}
	w.AdvanceTo(start + until)
	tl.Stop()
	r := &Result{Lines: tl.Lines, Wires: tl.Wires, End: until}
	for _, c := range clients {
		r.Players = append(r.Players, c.Name())
		if st, ok := c.DatagramStats(); ok {
			r.Lines = append(r.Lines, linkLine(r.Lines, c, until, st))
		}
		c.Close()
	}
	return r, nil
}

// linkLine is the line that ends the timeline of client c over a datagram
// link: its last moment again, at the run's end, saying what the link
// carried.
func linkLine(lines []Line, c *sim.Client, end time.Duration, st sim.DatagramStats) Line {
	var l Line
	for _, x := range lines {
		if x.Player == c.Name() {
			l = x
		}
	}
	l.TMS, l.T, l.Zap = int64(end/time.Millisecond), int64(end), nil
	l.Event = fmt.Sprintf("%s: datagram link: %d inputs in %d packets (%d lost), %d repeated; %d states (%d lost, %d stale); %d bytes up, %d down",
		c.Name(), st.Inputs, st.InputPackets, st.InputPacketsLost, st.Repeats(), st.States, st.StatesLost, st.StatesStale, st.BytesUp, st.BytesDown)
	l.Link = &LinkLine{Transport: sim.Datagram.String(), Inputs: st.Inputs, InputPackets: st.InputPackets,
		InputPacketsLost: st.InputPacketsLost, Repeated: st.Repeats(), States: st.States, StatesLost: st.StatesLost,
		StatesStale: st.StatesStale, BytesUp: st.BytesUp, BytesDown: st.BytesDown}
	return l
}
