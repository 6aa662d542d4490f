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
		refusedBefore := r.refusals()
		next, waited := r.probeLine(ctx, writers, first, last, o.Settle, &players)
		if waited {
			c.Stopped = fmt.Sprintf("with %d players settled, a newcomer was not let in at once %d times in turn, %v apart (it waited in line, or was refused a place in it): the server takes no more at once",
				len(players), capacityTries, o.Settle)
			break
		}
		if next <= last {
			in := r.connectRange(ctx, writers, next, last, time.Now(), time.Duration(last-next+1)*capacityRampEach)
			players = append(players, in...)
		}
		if n := r.refusals() - refusedBefore; n > 0 {
			c.Stopped = fmt.Sprintf("%d of the %d players of the step to %d were refused", n, last-first+1, last)
			if why := r.roomFull(); why != "" {
				c.Stopped += fmt.Sprintf(": the room is full (%s), not the server at its load: its capacity is %d players or more", why, len(players))
			} else if why := r.mostRefused(); why != "" {
				c.Stopped += ": " + why
			}
			break
		}
		var (
			p99   time.Duration
			n     uint64
			side  *ServerSide
			ok    = true
			tries []string
		)
		for try := 1; try <= capacityTries && ok; try++ {
			var tp99 time.Duration
			var tn uint64
			var tside *ServerSide
			tp99, tn, tside, ok = r.settle(ctx, windows)
			if ok && tn > 0 && (n == 0 || tp99 < p99) {
				p99, n, side = tp99, tn, tside
			}
			tries = append(tries, ms(tp99).String())
			if n > 0 && p99 <= o.Target {
				break
			}
		}
		if !ok {
			break
		}
		if say != nil {
			held := ""
			if len(tries) > 1 {
				held = fmt.Sprintf("; held %d times, the best kept: %s", len(tries), strings.Join(tries, ", "))
			}
			fmt.Fprintf(say, "%6d players: round trip p99 %v (the median of %d windows of %v%s) over %d inputs\n",
				len(players), ms(p99), windows-1, capacityWindow, held, n)
		}
		c.Steps = append(c.Steps, CapacityStep{Players: len(players), P99: p99})
		if n == 0 || p99 > o.Target {
			c.Stopped = fmt.Sprintf("the round trip p99 passed %v with %d players, %d times in turn", o.Target, len(players), len(tries))
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

// capacityTries is how many times a step is measured, or a settled
// server's line tried, before the search ends on it: on a machine shared
// with other work, another process only adds delay, so a step that keeps
// within the target once (or lets a newcomer in at once once) is one the
// server holds, and the best of the tries is kept.
const capacityTries = 3

// probeLine begins the step from first to last, the players in settled:
// one newcomer alone; if it is not let in at once (it waits in line, or
// is refused a place in it), the players walk settle and another tries,
// up to capacityTries. It adds those let in to players, and returns the
// next player of the step and whether no try was let in at once (the
// server takes no more at once in its steady state).
// The search's first step has nobody to settle: its first comes with the
// rest.
func (r *run) probeLine(ctx context.Context, writers []*writer, first, last int, settle time.Duration, players *[]*player) (next int, waited bool) {
	if first == 1 {
		return first, false
	}
	next = first
	for try := 1; try <= capacityTries && next <= last; try++ {
		queued, refused := r.queued(), r.refusals()
		*players = append(*players, r.connectRange(ctx, writers, next, next, time.Now(), 0)...)
		next++
		if r.queued() == queued && r.refusals() == refused || r.roomFull() != "" || ctx.Err() != nil {
			return next, false // let in at once; or the room is full, which the step says
		}
		if try < capacityTries && !sleepCtx(ctx, settle) {
			return next, false
		}
	}
	return next, next-first >= capacityTries
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

// mostRefused is the reason the run counted most refusals for, with the
// figures as the server said them the first time; "" if none.
func (r *run) mostRefused() string {
	r.refusedMu.Lock()
	defer r.refusedMu.Unlock()
	var b strings.Builder
	writeReasons(&b, "", r.refused)
	first, _, _ := strings.Cut(b.String(), "\n")
	_, text, _ := strings.Cut(first, " x ")
	return text
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
	return len(r.line.waits) + len(r.line.refused)
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
