package loadgen

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"
)

// Defaults of a capacity search (gridlag load -capacity).
const (
	DefaultCapacityTarget = 150 * time.Millisecond
	DefaultCapacityStep   = 250
	DefaultCapacitySettle = 5 * time.Second
)

// capacityRampEach spaces a step's players: 250 a second, slower than a
// server's line lets newcomers in while its ticks have room (a tick's
// headroom at a millisecond a join), so that a step is queued only when
// the server has no room to spare.
const capacityRampEach = 4 * time.Millisecond

// CapacityOptions configure a capacity search: the run's Options (N is
// the most players it will try; Ramp is unused: each step's players come
// at capacityRampEach), how many players each step adds, how long the
// players walk after each step before their round trips are read, and
// the round trip p99 the admitted players must keep.
type CapacityOptions struct {
	Options
	Step   int
	Settle time.Duration
	Target time.Duration
}

// Capacity is what a capacity search found.
type Capacity struct {
	// Players is the most players whose round trip p99 kept within the
	// target with nobody queued or refused: the capacity found (0 if the
	// first step failed).
	Players int
	// P99 is their round trip p99 over the last step's walk.
	P99 time.Duration
	// Stopped says why the search stopped: the round trip passed the
	// target, players were queued or refused, or N was reached.
	Stopped string
	// Server is the server's side of that last good step's walk (CPU,
	// RSS), when Options.ServerMetrics was given.
	Server *ServerSide
	// Steps are the players and round trip p99 of each step, in order.
	Steps []CapacityStep
}

// CapacityStep is one step of a capacity search.
type CapacityStep struct {
	Players int
	P99     time.Duration
}

// FindCapacity adds Step players at a time to the server, letting them
// walk Settle after each step, until the round trip p99 of the players
// in (over that walk) passes Target, or more than a tenth of a step's
// players were queued (a slow tick or two on a busy machine queues a
// few), or any was refused,
// or N are in; it says each step to say (if not nil) and returns the
// players of the last step that kept within the target.
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
	for first := 1; first <= o.N && ctx.Err() == nil; first += o.Step {
		last := min(first+o.Step-1, o.N)
		refusedBefore, queuedBefore := r.refusals(), r.queued()
		in := r.connectRange(ctx, writers, first, last, time.Now(), time.Duration(last-first+1)*capacityRampEach)
		players = append(players, in...)
		if n := r.refusals() - refusedBefore; n > 0 {
			c.Stopped = fmt.Sprintf("%d of the %d players of the step to %d were refused", n, last-first+1, last)
			break
		}
		if n := r.queued() - queuedBefore; n > (last-first+1)/10 {
			c.Stopped = fmt.Sprintf("%d of the %d players of the step to %d were queued: the server takes no more at once", n, last-first+1, last)
			break
		}
		before, beforeErr := r.readServer()
		counts := r.rtt.snapshot()
		if !sleepCtx(ctx, o.Settle) {
			break
		}
		p99, n := r.rtt.percentileSince(counts, 99)
		after, afterErr := r.readServer()
		if say != nil {
			fmt.Fprintf(say, "%6d players: round trip p99 %v over %d inputs\n", len(players), ms(p99), n)
		}
		c.Steps = append(c.Steps, CapacityStep{Players: len(players), P99: p99})
		if n == 0 || p99 > o.Target {
			c.Stopped = fmt.Sprintf("the round trip p99 passed %v with %d players", o.Target, len(players))
			break
		}
		c.Players, c.P99 = len(players), p99
		if o.ServerMetrics != "" {
			c.Server = serverSide(before, beforeErr, after, afterErr)
		}
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
