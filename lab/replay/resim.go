package replay

import (
	"errors"
	"fmt"
	"iter"
	"slices"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/internal/names"
	"gridlag/lab/record"
	"gridlag/lab/scenario"
	"gridlag/protocol"
	"gridlag/server/world"
)

// MaxOthers bounds the other players a game's re-simulation brings back.
const MaxOthers = 64

// seen is what a game's recorded stream told of the world: the player's
// ID, the other players' names, and every cell each player was seen on,
// at the server's time.
type seen struct {
	me     grid.PlayerID
	names  map[grid.PlayerID]string
	cells  map[grid.PlayerID][]sample
	order  []grid.PlayerID // the others, in the order first seen
	first  uint64          // the server time of the first State
	anyYet bool
}

// sample is a player's cell at a server time.
type sample struct {
	at  uint64
	pos grid.Pos
}

// readStream decodes the bytes a game's recording read from its socket,
// in order, as the client did.
func readStream(calls calls) *seen {
	s := &seen{names: map[grid.PlayerID]string{}, cells: map[grid.PlayerID][]sample{}}
	var players []grid.PlayerPos
	for m := range streamMessages(calls, nil) {
		switch m := m.(type) {
		case *protocol.Welcome:
			s.me = m.Player
		case *protocol.Join:
			s.names[m.Player.ID] = m.Player.Name
		case *protocol.State:
			if !s.anyYet {
				s.first, s.anyYet = m.TimeNS, true
			}
			players = m.AllPlayers(players[:0])
			for _, p := range players {
				list := s.cells[p.ID]
				if len(list) > 0 && list[len(list)-1].pos == p.Pos {
					continue
				}
				if len(list) == 0 && p.ID != s.me {
					s.order = append(s.order, p.ID)
				}
				s.cells[p.ID] = append(list, sample{m.TimeNS, p.Pos})
			}
		}
	}
	return s
}

// streamMessages decodes the messages a game's recording read from its
// socket, in order, as the client did (each connection's stream anew),
// up to the first that does not decode. keep, if not nil, picks those
// returned: the others are not kept past their decoding.
func streamMessages(calls calls, keep func(protocol.Message) bool) iter.Seq[protocol.Message] {
	return func(yield func(protocol.Message) bool) {
		var states protocol.StateStream
		var buf []byte
		for c := range calls.all() {
			switch c.Kind {
			case client.CallReconnect:
				states, buf = protocol.StateStream{}, buf[:0]
				continue
			case client.CallDeliver:
			default:
				continue
			}
			buf = append(buf, c.Data...)
			for {
				m, n, err := states.Unmarshal(buf)
				if n == 0 {
					break
				}
				buf = buf[n:]
				if err != nil {
					return
				}
				if (keep == nil || keep(m)) && !yield(m) {
					return
				}
			}
			buf = append([]byte(nil), buf...)
		}
	}
}

// resimulate plays a game's recording anew on the simulator with c's
// changes of the network or the server: the recorded map and the
// server's numbers the Welcome gave, the player at its first cell with
// the recorded link (changed by c), pressing and zapping at the recorded
// times, and every other player the recording saw walking where and when
// it was seen (a puppet on a link of no delay, moving at the server times
// of the States that showed it move). What the recording does not hold
// stays out: the others' zaps, a tag of the player, a respawn far away,
// the player's mid-game toggles and slider moves, the server's lag
// compensation (on within world.DefaultUnlag unless c says) and spawn
// protection (none). Its times are the recording's: its start is when
// the player's first State came.
func resimulate(rec *record.Recording, c Changes) (*started, error) {
	h := rec.Header.Game
	orig := newGameRun(rec, Changes{})
	orig.runTo(rec.End)
	v := orig.d.View(rec.End)
	if v.Map == nil || orig.checks.n == 0 {
		return nil, errors.New("the recording has no State: nothing to simulate")
	}
	t0 := orig.checks.first
	s := readStream(callsOf(rec))
	if !s.anyYet || len(s.cells[s.me]) == 0 {
		return nil, errors.New("the recording's stream shows the player nowhere")
	}
	cfg := scenario.Config{Map: v.Map, MoveTime: v.MoveTime, Rate: v.UpdateRate, Seed: h.Seed,
		Predict: h.Predict, Reconcile: h.Reconcile, NoInterpolate: !h.Interpolate,
		LagComp: true, Unlag: world.DefaultUnlag, Until: rec.End - t0}
	tr, _ := recordedTrace(h.Trace) // checked by start
	cfg.Player = scenario.Player{Name: h.Name, Start: s.cells[s.me][0].pos, Latency: h.Latency.D(), Jitter: h.Jitter.D(), Loss: h.Loss,
		Trace: tr, TraceAt: t0} // the trace began with the connection, t0 before the run
	if tr == nil {
		cfg.Player.TraceAt = 0
	}
	if names.CheckPlayer(cfg.Player.Name, false) != nil {
		cfg.Player.Name = "you"
	}
	for call := range callsOf(rec).all() {
		if call.At < t0 || call.Kind != client.CallPress && call.Kind != client.CallZap {
			continue
		}
		cfg.Player.Presses = append(cfg.Player.Presses, scenario.Press{At: call.At - t0, Dir: call.Dir, Zap: call.Kind == client.CallZap})
	}
	taken := []grid.Pos{cfg.Player.Start}
	for _, id := range s.order {
		if len(cfg.Others) == MaxOthers {
			break
		}
		p, ok := s.puppet(id, v.Map, v.MoveTime, taken, cfg.Player.Name)
		if ok {
			cfg.Others = append(cfg.Others, p)
			taken = append(taken, p.Start)
		}
	}
	cfg = c.scenario(cfg)
	if n := cfg.Work(); n > MaxWork {
		return nil, fmt.Errorf("simulating the game anew: %w: its run would take %d states and presses", ErrTooMuchWork, n)
	}
	r, err := newScenarioRun(cfg)
	if err != nil {
		return nil, fmt.Errorf("simulating the game anew: %w", err)
	}
	sh := &shiftedRun{scenarioRun: r, by: t0}
	return &started{run: sh, kind: record.KindGame, finish: func(time.Duration) *Result {
		res := &Result{Result: *r.st.Finish(), Kind: record.KindGame, Resimulated: true}
		shift(&res.Result, t0)
		return withMarks(res)
	}}, nil
}

// puppet returns the other player id as a scripted player: where it was
// first seen, and a move at each server time it was seen one cell on (a
// longer jump is walked, if the speed limit allows it, else skipped).
func (s *seen) puppet(id grid.PlayerID, m *grid.Map, moveTime time.Duration, taken []grid.Pos, player string) (scenario.Player, bool) {
	cells := s.cells[id]
	name := s.names[id]
	if names.CheckPlayer(name, false) != nil || name == player || name == "" {
		name = fmt.Sprintf("player %d", id)
	}
	p := scenario.Player{Name: name, Start: cells[0].pos}
	if slices.Contains(taken, p.Start) || m.Wall(p.Start) {
		return p, false
	}
	at := func(server uint64) time.Duration { return time.Duration(max(server, s.first) - s.first) }
	for i := 1; i < len(cells); i++ {
		from, to := cells[i-1], cells[i]
		path := walk(m, from.pos, to.pos, 32)
		if path == nil {
			continue
		}
		end := at(to.at)
		for j := 1; j < len(path); j++ {
			dx, dy := path[j].X-path[j-1].X, path[j].Y-path[j-1].Y
			when := max(end-time.Duration(len(path)-1-j)*moveTime, at(from.at))
			p.Presses = append(p.Presses, scenario.Press{At: when, Dir: dirTo(dx, dy)})
		}
	}
	return p, true
}

// dirTo is the direction of a one-cell step.
func dirTo(dx, dy int) grid.Dir {
	switch {
	case dx > 0:
		return grid.Right
	case dx < 0:
		return grid.Left
	case dy > 0:
		return grid.Down
	}
	return grid.Up
}

// walk returns a shortest walk over floor from a to b, both included, of
// at most limit steps; nil if there is none.
func walk(m *grid.Map, a, b grid.Pos, limit int) []grid.Pos {
	if a == b {
		return []grid.Pos{a}
	}
	prev := map[grid.Pos]grid.Pos{a: a}
	frontier := []grid.Pos{a}
	for steps := 0; steps < limit && len(frontier) > 0; steps++ {
		var next []grid.Pos
		for _, p := range frontier {
			for _, d := range []grid.Dir{grid.Up, grid.Down, grid.Left, grid.Right} {
				dx, dy := d.Delta()
				q := grid.Pos{X: p.X + dx, Y: p.Y + dy}
				if _, ok := prev[q]; ok || m.Wall(q) {
					continue
				}
				prev[q] = p
				if q == b {
					path := []grid.Pos{b}
					for c := p; c != a; c = prev[c] {
						path = append(path, c)
					}
					path = append(path, a)
					slices.Reverse(path)
					return path
				}
				next = append(next, q)
			}
		}
		frontier = next
	}
	return nil
}

// shiftedRun is a scenario run whose times are the recording's: its 0
// is the recording's by.
type shiftedRun struct {
	*scenarioRun
	by time.Duration
}

func (r *shiftedRun) now() time.Duration    { return r.scenarioRun.now() + r.by }
func (r *shiftedRun) runTo(t time.Duration) { r.scenarioRun.runTo(max(t-r.by, 0)) }
func (r *shiftedRun) next() (time.Duration, bool) {
	t, ok := r.scenarioRun.next()
	return t + r.by, ok
}

// shift moves a result's times by d.
func shift(r *scenario.Result, d time.Duration) {
	for i := range r.Lines {
		r.Lines[i].T += int64(d)
		r.Lines[i].TMS = r.Lines[i].T / int64(time.Millisecond)
	}
	for i := range r.Wires {
		r.Wires[i].Sent += d
		r.Wires[i].At += d
	}
	r.End += d
}
