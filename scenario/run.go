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
	"gridlag/protocol"
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
	// Input is set on the line where an input's life ends: the JSON
	// output prints that line as {"input": {...}} alone (see InputLine),
	// the table (with -inputs) as its Event.
	Input *InputLine `json:"-"`
}

// Timeline is what a run gives: its lines, and the latency budget of the
// first player's inputs (nil if the server staged none).
type Timeline struct {
	Lines  []Line
	Budget *BudgetReport
}

// ZapLine is how the server judged a zap, as the JSON output prints it.
// Players are named as in Line.Player.
type ZapLine struct {
	Shooter  string  `json:"shooter"`
	Hit      bool    `json:"hit"`
	Target   *string `json:"target"` // the tagged player; null for a miss
	RewindMS int64   `json:"rewind_ms"`
}

// Run plays the scenario and returns its timeline's lines.
func Run(cfg Config) ([]Line, error) {
	tl, err := Play(cfg)
	return tl.Lines, err
}

// Play plays the scenario and returns its timeline: the lines, with one
// for the end of each input's life, and the latency budget.
func Play(cfg Config) (Timeline, error) {
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
			return Timeline{}, errors.New("scenario: the two players cannot start on the same cell")
		}
		starts = append(starts, cfg.Second.Start)
	}
	for _, s := range starts {
		if m.Wall(s) {
			return Timeline{}, fmt.Errorf("scenario: start %v is a wall or off the map", s)
		}
	}
	scfg := world.Config{Spawn: cfg.Player.Start, Spawns: starts[1:], MoveTime: cfg.MoveTime, Rate: cfg.Rate,
		LagComp: cfg.LagComp, Unlag: cfg.Unlag, Protect: cfg.Protect}
	if err := scfg.Validate(); err != nil {
		return Timeline{}, err
	}
	w := sim.New(scfg)

	join := func(p *Player) *sim.Client {
		return w.Join(p.Name, client.Options{
			NoPredict: !cfg.Predict, NoReconcile: !cfg.Reconcile,
			Latency: p.Latency, Jitter: p.Jitter, Loss: p.Loss, Seed: cfg.Seed + int64(len(p.Name)),
			PingInterval: time.Hour, Trace: true,
		})
	}
	players := []*Player{&cfg.Player}
	clients := []*sim.Client{join(&cfg.Player)}
	if cfg.Second != nil {
		players = append(players, cfg.Second)
		clients = append(clients, join(cfg.Second))
	}
	for i, c := range clients {
		if v := c.View(); v.Err != nil || !v.HasState {
			return Timeline{}, fmt.Errorf("scenario: %s could not join: %v", players[i].Name, v.Err)
		}
	}
	start := w.Now()
	byID := map[grid.PlayerID]string{}
	for _, c := range clients {
		byID[c.View().Me] = c.Name()
	}
	name := func(id grid.PlayerID) string { return byID[id] }

	var lines []Line
	last := map[*sim.Client]Line{}
	record := func(t time.Duration, c *sim.Client, event string, always bool) {
		v := c.ViewLocked()
		sp, _ := w.PositionLocked(c)
		l := Line{TMS: int64((t - start) / time.Millisecond), T: int64(t - start), Player: c.Name(), Event: event,
			Client: [2]int{v.Predicted.X, v.Predicted.Y}, Server: [2]int{sp.X, sp.Y},
			Pending: []uint32{}, Ack: v.LastAck, Corr: v.Corrections}
		for _, p := range v.Pending {
			l.Pending = append(l.Pending, p.Seq)
		}
		prev, seen := last[c]
		if !always && seen && prev.Client == l.Client && prev.Server == l.Server && slices.Equal(prev.Pending, l.Pending) && prev.Ack == l.Ack {
			return
		}
		last[c] = l
		lines = append(lines, l)
	}
	for _, c := range clients {
		w.Locked(func() {
			record(start, c, fmt.Sprintf("%s: starts at %v", c.Name(), c.ViewLocked().Predicted), true)
		})
	}

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
	lives := map[*sim.Client][]client.InputLife{}
	downs := map[*sim.Client][]time.Duration{}
	mover, viewer := clients[0], clients[len(clients)-1]
	var sights sightings
	w.Trace(func(e sim.Event) {
		switch e.Kind {
		case sim.ServerInput:
			if e.Client == mover && e.Moved && viewer != mover {
				sights.watch(e.T, e.Seq, e.Pos)
			}
		case sim.Lived:
			lives[e.Client] = append(lives[e.Client], *e.Life)
			in := inputLine(e.Client.Name(), e.Life, start, cfg.Rate > 0)
			record(e.T, e.Client, lifeSentence(e.Client.Name(), in, e.Life), true)
			lines[len(lines)-1].Input = in
			return
		case sim.StateArrived:
			downs[e.Client] = append(downs[e.Client], e.T-e.Made)
		}
		if e.Client == nil || e.Kind == sim.OtherArrived && e.Message != protocol.TypeZapResult && e.Message != protocol.TypeTagged {
			return
		}
		always := e.Kind == sim.Press || e.Kind == sim.HeldSent || e.Kind == sim.ServerInput || e.Kind == sim.Zapped || e.Kind == sim.OtherArrived
		if e.Kind == sim.ServerZap {
			record(e.T, e.Client, sentence(e, name), true)
			lines[len(lines)-1].Zap = zapLine(e, name)
			return
		}
		record(e.T, e.Client, sentence(e, name), always)
	})
	me := mover.View().Me
	for _, p := range all {
		sights.advance(w, viewer, me, start+p.At)
		p.On(p.c)
	}
	sights.advance(w, viewer, me, start+until)
	w.Trace(nil)
	var down time.Duration
	for _, d := range downs[viewer] {
		down += d
	}
	if n := len(downs[viewer]); n > 0 {
		down /= time.Duration(n)
	}
	budget := budgetReport(cfg, lives[mover], mover, viewer, down)
	if budget != nil {
		budget.Seen = sights.delays(lives[mover])
	}
	for _, c := range clients {
		c.Close()
	}
	return Timeline{Lines: lines, Budget: budget}, nil
}

// sightings watches the second player's screen for the first one's moves:
// from the moment the server moved the first player to a cell until the
// second draws it there, the world advances a millisecond at a time.
type sightings struct {
	cells []sighting
}

// sighting is one move of the first player to watch for.
type sighting struct {
	seq      uint32
	cell     grid.Pos
	from     time.Duration // when the server moved it
	seen     time.Duration // when the second player drew it there; 0 not yet
	gaveUpAt bool
}

// sightWait is how long a move is watched for at most.
const sightWait = 5 * time.Second

// watch starts watching for input seq, which the server moved to cell at t.
func (s *sightings) watch(t time.Duration, seq uint32, cell grid.Pos) {
	s.cells = append(s.cells, sighting{seq: seq, cell: cell, from: t})
}

// watching reports whether a move is still watched for at t.
func (s *sightings) watching(t time.Duration) bool {
	for i := range s.cells {
		if c := &s.cells[i]; c.seen == 0 && !c.gaveUpAt {
			if t-c.from > sightWait {
				c.gaveUpAt = true
				continue
			}
			return true
		}
	}
	return false
}

// advance moves w to target, a millisecond at a time while a move is
// watched for, checking viewer's screen for player me at each step.
func (s *sightings) advance(w *sim.World, viewer *sim.Client, me grid.PlayerID, target time.Duration) {
	for {
		now := w.Now()
		if now >= target {
			w.AdvanceTo(target)
			return
		}
		if !s.watching(now) {
			// Nothing to watch for until the server moves the player:
			// to the next event, or the target.
			next, ok := w.Next()
			if !ok || next >= target {
				w.AdvanceTo(target)
				return
			}
			w.AdvanceTo(next)
			continue
		}
		w.AdvanceTo(min(now+time.Millisecond, target))
		s.look(w.Now(), viewer.View(), me)
	}
}

// look marks the moves viewer's view v shows player me at, at t.
func (s *sightings) look(t time.Duration, v client.View, me grid.PlayerID) {
	for _, o := range v.Others {
		if o.ID != me {
			continue
		}
		for i := range s.cells {
			if c := &s.cells[i]; c.seen == 0 && !c.gaveUpAt && c.cell == o.Pos {
				c.seen = t
			}
		}
	}
}

// delays returns how long after its press each move watched for was seen,
// by the lives' presses.
func (s *sightings) delays(lives []client.InputLife) []time.Duration {
	var out []time.Duration
	for _, c := range s.cells {
		if c.seen == 0 {
			continue
		}
		for _, l := range lives {
			if l.Seq == c.seq {
				out = append(out, c.seen-l.Pressed)
			}
		}
	}
	return out
}
