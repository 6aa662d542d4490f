package loadgen

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
)

// Defaults of a capacity search (gridlag load -capacity).
const (
	DefaultCapacityTarget = 150 * time.Millisecond
	DefaultCapacityStep   = 250
	DefaultCapacitySettle = 5 * time.Second
)

// capacityRampEach spaces a step's players: 250 a second. Those the
// server cannot take at once wait in its line, which lets them in as
// its ticks' headroom allows: a step's joins are a transient (each sends
// the newcomer the map), not the load the search measures.
const capacityRampEach = 4 * time.Millisecond

// capacityWindow is how the walk after each step is read: in windows of
// a second, the first not counted (the step's joins may still be
// finishing: the maps written, the newcomers' first full States), and the
// step's round trip p99 is the median of the others' p99s, so that one
// noisy second (another process on the core, a garbage collection) does
// not end the search.
const capacityWindow = time.Second

// CapacityOptions configure a capacity search: the run's Options (N is
// the most players it will try; Ramp is unused: each step's players come
// at capacityRampEach), how many players each step adds, how long the
// players walk after each step before their round trips are read (in
// windows of a second, the first not counted: at least two), and the
// round trip p99 the admitted players must keep.
type CapacityOptions struct {
	Options
	Step   int
	Settle time.Duration
	Target time.Duration
}

// Capacity is what a capacity search found.
type Capacity struct {
	// Players is the most players whose round trip p99 kept within the
	// target, with a newcomer still let in at once and nobody refused:
	// the capacity found (0 if the first step failed).
	Players int
	// P99 is their round trip p99: the median of the last good step's
	// windows.
	P99 time.Duration
	// Stopped says why the search stopped: the round trip passed the
	// target, a newcomer had to wait in line once the players in had
	// settled, players were refused, or N was reached.
	Stopped string
	// Server is the server's side of that last good step's counted walk
	// (CPU, RSS), when Options.ServerMetrics was given.
	Server *ServerSide
	// Steps are the players and round trip p99 of each step, in order.
	Steps []CapacityStep
}

// CapacityStep is one step of a capacity search.
type CapacityStep struct {
	Players int
	P99     time.Duration
}

// FindCapacity adds Step players at a time to the server. Each step
// begins with one newcomer alone, the players before it settled: if it
// must wait in the server's line, the server takes no more at once in
// its steady state, and the search stops (a step's later players may
// wait in line: their joins are a transient the line paces). Then the
// players walk Settle, read in windows (capacityWindow), and the search
// stops when the median of the windows' round trip p99s passes Target,
// or any player was refused, or N are in. It says each step to say (if
// not nil) and returns the players of the last step that kept within
// the target.
func FindCapacity(ctx context.Context, o CapacityOptions, say io.Writer) (Capacity, error) {
	if o.Step <= 0 {
		o.Step = DefaultCapacityStep
	}
	if o.Settle <= 0 {
		o.Settle = DefaultCapacitySettle
	}
	if o.Target <= 0 {
		o.Target = DefaultCapacityTarget
	}
	if o.N == 0 {
		o.N = MaxPlayers
	}
	if err := o.check(); err != nil {
		return Capacity{}, err
	}
	o.Options = o.withDefaults()
	o.Say = say
	r := newRun(o.Options)
	r.plan.on = false // the capacity of the server's default room, as it holds
	writers, stop, writing := r.startWriters()
	var (
		c       Capacity
		players []*player
	)
	windows := max(int(o.Settle/capacityWindow), 2)
	for first := 1; first <= o.N && ctx.Err() == nil; first += o.Step {
		last := min(first+o.Step-1, o.N)
		refusedBefore, queuedBefore := r.refusals(), r.queued()
		in := r.connectRange(ctx, writers, first, first, time.Now(), 0)
		players = append(players, in...)
		if first > 1 && r.queued() > queuedBefore {
			c.Stopped = fmt.Sprintf("with %d players settled, a newcomer had to wait in line: the server takes no more at once", first-1)
			break
		}
		if last > first {
			in = r.connectRange(ctx, writers, first+1, last, time.Now(), time.Duration(last-first)*capacityRampEach)
			players = append(players, in...)
		}
		if n := r.refusals() - refusedBefore; n > 0 {
			c.Stopped = fmt.Sprintf("%d of the %d players of the step to %d were refused", n, last-first+1, last)
			if why := r.roomFull(); why != "" {
				c.Stopped += fmt.Sprintf(": the room is full (%s), not the server at its load: its capacity is %d players or more", why, len(players))
			}
			break
		}
		p99, n, side, ok := r.settle(ctx, windows)
		if !ok {
			break
		}
		if say != nil {
			fmt.Fprintf(say, "%6d players: round trip p99 %v (the median of %d windows of %v) over %d inputs\n",
				len(players), ms(p99), windows-1, capacityWindow, n)
		}
		c.Steps = append(c.Steps, CapacityStep{Players: len(players), P99: p99})
		if n == 0 || p99 > o.Target {
			c.Stopped = fmt.Sprintf("the round trip p99 passed %v with %d players", o.Target, len(players))
			break
		}
		c.Players, c.P99, c.Server = len(players), p99, side
		if last == o.N {
			c.Stopped = fmt.Sprintf("all %d players were in within the target", o.N)
		}
	}
	if c.Stopped == "" && ctx.Err() != nil {
		c.Stopped = "interrupted"
	}
	close(stop)
	writing.Wait()
	r.leave(players)
	if c.Players == 0 && c.Stopped == "" {
		return c, errors.New("loadgen: no step was measured")
	}
	return c, nil
}

// settle lets the players walk windows windows of capacityWindow and
// returns the median of the round trip p99s of all but the first, the
// inputs acknowledged in those, and the server's side over them (nil
// without Options.ServerMetrics); false if ctx was done first.
func (r *run) settle(ctx context.Context, windows int) (time.Duration, uint64, *ServerSide, bool) {
	if !sleepCtx(ctx, capacityWindow) {
		return 0, 0, nil, false
	}
	before, beforeErr := r.readServer()
	prev := r.rtt.snapshot()
	var (
		p99s  []time.Duration
		total uint64
	)
	for range windows - 1 {
		if !sleepCtx(ctx, capacityWindow) {
			return 0, 0, nil, false
		}
		now := r.rtt.snapshot()
		if p, n := percentileBetween(prev, now, 99); n > 0 {
			p99s = append(p99s, p)
			total += n
		}
		prev = now
	}
	var side *ServerSide
	if r.opts.ServerMetrics != "" {
		after, afterErr := r.readServer()
		side = serverSide(before, beforeErr, after, afterErr)
	}
	if len(p99s) == 0 {
		return 0, 0, side, true
	}
	slices.Sort(p99s)
	return p99s[len(p99s)/2], total, side, true
}

// roomFull is the server's words of a room-full refusal the run
// counted, without their "room full: " and "; another room ..." ; "" if
// none.
func (r *run) roomFull() string {
	r.refusedMu.Lock()
	defer r.refusedMu.Unlock()
	for text := range r.refused {
		if why, ok := strings.CutPrefix(text, "room full: "); ok {
			why, _, _ = strings.Cut(why, ";")
			return why
		}
	}
	return ""
}

// refusals is how many connections the run counted refused so far.
func (r *run) refusals() int {
	r.refusedMu.Lock()
	defer r.refusedMu.Unlock()
	return total(r.refused)
}

// queued is how many players waited in the server's line so far.
func (r *run) queued() int {
	r.line.mu.Lock()
	defer r.line.mu.Unlock()
	return len(r.line.waits) + r.line.refused
}

// sleepCtx waits d; false if ctx was done first.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	return sleepUntil(ctx, time.Now().Add(d))
}

// WriteText writes what the search found: the capacity, why it stopped,
// and the server's CPU and RSS at that point.
func (c Capacity) WriteText(w io.Writer) error {
	_, err := fmt.Fprintf(w, "capacity    %d players with round trip p99 %v (stopped: %s)\n", c.Players, ms(c.P99), c.Stopped)
	if err == nil && c.Server != nil {
		_, err = io.WriteString(w, c.Server.text())
	}
	return err
}
