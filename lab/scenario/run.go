package scenario

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/internal/link"
	"gridlag/lab/sim"
	"gridlag/server/world"
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
	// Trace, if not nil, is a network that changes over time: the
	// player's link follows it from the scenario's start, its time 0
	// (see link.Trace), over Latency, Jitter and Loss. TraceAt is the
	// trace's time at the scenario's start (0: it starts with it).
	Trace   *link.Trace
	TraceAt time.Duration
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
	// Map is the map; nil = the embedded one.
	Map *grid.Map
	// Others are more players in the world, after the first two, whose
	// moments the timeline leaves out: the others of a game that a replay
	// simulates anew, walking where the recording saw them.
	Others []Player
	// NoInterpolate turns the clients' interpolation of others off.
	NoInterpolate bool
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
	// Input is set on the line where an input's life ends: the JSON
	// output prints that line as {"input": {...}} alone (see InputLine),
	// the table (with -inputs) as its Event.
	Input *InputLine `json:"-"`
	// Link is what a datagram link carried, on the last line of a
	// player over one (see sim.DatagramStats).
	Link *LinkLine `json:"link,omitempty"`
	// Loss is set on a line that names a message lost on the player's
	// link (see LossLine), at its first loss: the player's moment then.
	Loss *LossLine `json:"loss,omitempty"`
	// Unacked are the inputs never acknowledged, on the line that ends
	// the timeline of a player that has some.
	Unacked []uint32 `json:"unacknowledged,omitempty"`
	// Tag is set on the line where the server's word that the player was
	// tagged reaches it.
	Tag *TagLine `json:"-"`
	// OriginalZap is, on the line of a zap that a what-if judged
	// otherwise (Differs), how the recording's run judged it.
	OriginalZap *ZapLine `json:"original_zap,omitempty"`
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
	// Seq is the zap's input number, Why what a miss met ("rival had
	// left the line", "out of range"): for comparing two runs' verdicts
	// (see replay.Compare), not printed.
	Seq uint32 `json:"-"`
	Why string `json:"-"`
}

// TagLine is the server's word that a player was tagged and frozen, on
// the line where it reaches the player: for comparing two runs (not
// printed; the event says it).
type TagLine struct {
	By  string        // the shooter
	Ago time.Duration // how far back the server judged the zap
}

// Run plays the scenario and returns its timeline's lines.
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
	// Budget is the latency budget of the first player's inputs, nil if
	// the server staged none.
	Budget *BudgetReport
	// Points are the points the server counts for each player the
	// timeline follows at the end, by name.
	Points map[string]int
}

// RunFull plays the scenario and returns its timeline and its messages.
func RunFull(cfg Config) (*Result, error) {
	s, err := Start(cfg)
	if err != nil {
		return nil, err
	}
	return s.Finish(), nil
}

// Stepper is a scenario being played a moment at a time, for a screen
// that shows it as it goes: its world, its clients on their links, its
// timeline so far. Times are since the scenario's start, when every
// player is in.
type Stepper struct {
	world    *sim.World
	clients  []*sim.Client
	followed int // the clients the timeline follows: the first two at most
	tl       *Timeline
	presses  []timed // in time order
	next     int     // the next press to play
	until    time.Duration
	cfg      Config // for the latency budget's knobs
}

// timed is a press of one client.
type timed struct {
	Press
	c *sim.Client
}

// Start joins the scenario's players and returns it at its start, before
// any press.
func Start(cfg Config) (*Stepper, error) {
	if cfg.Player.Name == "" {
		cfg.Player.Name = "you"
	}
	m := cfg.Map
	if m == nil {
		m = grid.DefaultMap()
	}
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
	for _, o := range cfg.Others {
		if slices.Contains(starts, o.Start) {
			return nil, fmt.Errorf("scenario: %s cannot start on %v, another player's cell", o.Name, o.Start)
		}
		starts = append(starts, o.Start)
	}
	for _, s := range starts {
		if m.Wall(s) {
			return nil, fmt.Errorf("scenario: start %v is a wall or off the map", s)
		}
	}
	scfg := world.Config{Map: m, Spawn: cfg.Player.Start, Spawns: starts[1:], MoveTime: cfg.MoveTime, Rate: cfg.Rate,
		LagComp: cfg.LagComp, Unlag: cfg.Unlag, Protect: cfg.Protect}
	if err := scfg.Validate(); err != nil {
		return nil, err
	}
	w := sim.New(scfg)

	join := func(p *Player) *sim.Client {
		return w.JoinOver(p.Name, client.Options{
			NoPredict: !cfg.Predict, NoReconcile: !cfg.Reconcile, NoInterpolate: cfg.NoInterpolate,
			Latency: p.Latency, Jitter: p.Jitter, Loss: p.Loss, Seed: cfg.Seed + int64(len(p.Name)),
			// The server's stages of the inputs, for their lives and the
			// budget: over TCP only. A datagram link would carry them on
			// its reliable channel, out of step with the States they
			// belong to, and hold what follows there behind a lost one.
			PingInterval: time.Hour, Trace: cfg.Link != sim.Datagram,
		}, cfg.Link)
	}
	players := []*Player{&cfg.Player}
	clients := []*sim.Client{join(&cfg.Player)}
	if cfg.Second != nil {
		players = append(players, cfg.Second)
		clients = append(clients, join(cfg.Second))
	}
	followed := len(clients)
	for i := range cfg.Others {
		players = append(players, &cfg.Others[i])
		clients = append(clients, join(&cfg.Others[i]))
	}
	for i, c := range clients {
		if v := c.View(); v.Err != nil || !v.HasState {
			return nil, fmt.Errorf("scenario: %s could not join: %v", players[i].Name, v.Err)
		}
	}
	tl := NewTimeline(w, clients[:followed])
	for i, p := range players {
		if p.Trace == nil {
			continue
		}
		if err := clients[i].FollowTraceFrom(p.Trace, tl.start-p.TraceAt); err != nil {
			return nil, fmt.Errorf("scenario: %s's trace: %w", p.Name, err)
		}
	}
	var all []timed
	for i, p := range players {
		for _, pr := range p.Presses {
			all = append(all, timed{pr, clients[i]})
		}
	}
	slices.SortStableFunc(all, func(a, b timed) int { return cmp.Compare(a.At, b.At) })
	return &Stepper{world: w, clients: clients, followed: followed, tl: tl, presses: all, until: cfg.end(), cfg: cfg}, nil
}

// end is how long a run of c goes on: Until, or else long enough for
// every press (the speed limit holding the later ones), and every state
// that follows it, to cross the slowest link both ways, and for two
// update ticks.
func (c Config) end() time.Duration {
	if c.Until > 0 {
		return c.Until
	}
	var lastPress, slowest time.Duration // the last press, plus time for held ones; the slowest link
	for _, p := range c.all() {
		for _, pr := range p.Presses {
			lastPress = max(lastPress, pr.At+time.Duration(len(p.Presses))*c.MoveTime)
		}
		trip := p.Latency + p.Jitter
		if p.Loss > 0 {
			// Room for a message lost twice on the way: retransmitted
			// after the RTO, then after twice it (link's RTO rule).
			trip += 3 * max(link.MinRTO, p.Latency+4*p.Jitter)
		}
		if p.Trace != nil {
			trip = traceTrip(p.Trace)
		}
		slowest = max(slowest, trip)
	}
	until := lastPress + 2*slowest + 100*time.Millisecond
	if c.Rate > 0 {
		until += 2 * time.Second / time.Duration(c.Rate)
	}
	return until
}

// traceTrip is the slowest round trip a trace gives a message and its
// answer: both ways at their slowest, the longest stall, and room for a
// message lost twice where it loses any.
func traceTrip(tr *link.Trace) time.Duration {
	var slow [2]time.Duration // each way's slowest delay plus jitter
	var cur [2]struct{ delay, jitter time.Duration }
	var stall time.Duration
	lossy := false
	for _, s := range tr.Steps {
		for i, d := range []link.Dir{link.DirUp, link.DirDown} {
			if s.Dir&d == 0 {
				continue
			}
			if s.Set&link.SetDelay != 0 {
				cur[i].delay = s.Delay
			}
			if s.Set&link.SetJitter != 0 {
				cur[i].jitter = s.Jitter
			}
			slow[i] = max(slow[i], cur[i].delay+cur[i].jitter)
		}
		stall = max(stall, s.Stall)
		lossy = lossy || s.Loss > 0
	}
	trip := slow[0] + slow[1] + stall
	if lossy {
		trip += 3 * max(link.MinRTO, 2*max(slow[0], slow[1])+4*max(slow[0], slow[1]))
	}
	return trip
}

// World returns the scenario's world.
func (s *Stepper) World() *sim.World { return s.world }

// Clients returns the clients of the players the timeline follows, the
// first the one whose view it is.
func (s *Stepper) Clients() []*sim.Client { return s.clients[:s.followed] }

// Timeline returns the timeline so far.
func (s *Stepper) Timeline() *Timeline { return s.tl }

// Until returns how long the scenario runs.
func (s *Stepper) Until() time.Duration { return s.until }

// Now returns the time since the start.
func (s *Stepper) Now() time.Duration { return s.world.Now() - s.tl.start }

// AdvanceTo plays the scenario up to time t since the start: the presses
// at their times, after what else is due then.
func (s *Stepper) AdvanceTo(t time.Duration) {
	start := s.tl.start
	for s.next < len(s.presses) && s.presses[s.next].At <= t {
		p := s.presses[s.next]
		s.tl.advanceTo(start + p.At)
		p.On(p.c)
		s.next++
	}
	s.tl.advanceTo(start + t)
}

// Next returns when the next thing is due, since the start: a message, a
// timer or a press; ok is false when nothing is.
func (s *Stepper) Next() (time.Duration, bool) {
	wt, ok := s.world.Next()
	if s.next < len(s.presses) {
		if pt := s.tl.start + s.presses[s.next].At; !ok || pt < wt {
			return pt - s.tl.start, true
		}
	}
	return wt - s.tl.start, ok
}

// Step does the next thing due (see Next), and nothing later: a press
// due with other things comes after them, in a step of its own.
func (s *Stepper) Step() {
	wt, ok := s.world.Next()
	if s.next < len(s.presses) {
		if pt := s.tl.start + s.presses[s.next].At; !ok || pt < wt {
			s.AdvanceTo(pt - s.tl.start)
			return
		}
	}
	s.world.Step()
	s.tl.look()
}

// Finish plays the scenario to its end and returns it whole; the
// stepper is done with.
func (s *Stepper) Finish() *Result {
	until := s.until
	s.AdvanceTo(until)
	r := &Result{Lines: s.tl.Close(until), Wires: s.tl.Wires, End: until, Budget: s.tl.budget(s.cfg), Points: s.tl.Points()}
	for i, c := range s.clients {
		if i < s.followed {
			r.Players = append(r.Players, c.Name())
		}
		c.Close()
	}
	return r
}

// LinkLines ends a timeline of clients with a line for each of them over
// a datagram link, saying what its link carried (see LinkLine).
func LinkLines(lines []Line, clients []*sim.Client, end time.Duration) []Line {
	for _, c := range clients {
		if st, ok := c.DatagramStats(); ok {
			lines = append(lines, linkLine(lines, c, end, st))
		}
	}
	return lines
}

// linkLine is the line that ends the timeline of client c over a datagram
// link: its last moment again, at the run's end, saying what the link
// carried.
func linkLine(lines []Line, c *sim.Client, end time.Duration, st sim.DatagramStats) Line {
	l := momentOf(lines, c.Name(), end)
	l.TMS, l.T, l.Zap = int64(end/time.Millisecond), int64(end), nil
	l.Event = fmt.Sprintf("%s: datagram link: %d inputs in %d packets (%d lost), %d repeated; %d states (%d lost, %d stale); %d bytes up, %d down",
		c.Name(), st.Inputs, st.InputPackets, st.InputPacketsLost, st.Repeats(), st.States, st.StatesLost, st.StatesStale, st.BytesUp, st.BytesDown)
	l.Link = &LinkLine{Transport: sim.Datagram.String(), Inputs: st.Inputs, InputPackets: st.InputPackets,
		InputPacketsLost: st.InputPacketsLost, Repeated: st.Repeats(), States: st.States, StatesLost: st.StatesLost,
		StatesStale: st.StatesStale, BytesUp: st.BytesUp, BytesDown: st.BytesDown}
	return l
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
