package bot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gridlag/client"
	"gridlag/grid"
)

// settleSlack is the time a bot waits, at the end, on top of twice the
// round trip for its last inputs to be acknowledged.
const settleSlack = 2 * time.Second

// defaultStep is the pace of a bot whose server sent no speed limit.
const defaultStep = 100 * time.Millisecond

// play runs bot i (from 1): it connects, walks until ctx is done, stops
// pressing, waits (bounded) for its inputs to be acknowledged and closes.
func play(ctx context.Context, o Options, i int) (r botResult) {
	name := o.name(i)
	lg := o.Logger.With("bot", name)

	// Dial is bounded: the TCP connect by client.DialTimeout, the
	// handshake by the client's silence timeout.
	conn, err := client.Dial(ctx, o.Addr, client.Options{
		Name:    name,
		Bot:     true,
		Latency: o.Latency,
		Jitter:  o.Jitter,
		Seed:    o.seed(i),
		// A bot draws nothing: it steers by the others' latest cells
		// rather than by where they are drawn in the past.
		NoInterpolate: true,
	})
	if err != nil {
		if errors.Is(ctx.Err(), context.Canceled) {
			lg.Debug("stopped before it connected", "err", err)
			return r
		}
		lg.Warn("could not connect", "addr", o.Addr, "err", err)
		r.err = fmt.Errorf("%s: connect: %w", name, err)
		return r
	}
	defer conn.Close()
	start := time.Now()
	v := conn.View()
	lg.Debug("connected", "player", v.Me, "at", v.Predicted)
	r.played = true

	step := v.MoveTime
	if step <= 0 {
		step = defaultStep
	}
	brain := NewBrain(o.seed(i), o.Avoid...)
	// The next press comes one step after the last one returned, so the
	// client never holds a press back for the speed limit: each press is
	// sent at once, on top of exactly the pending inputs the brain saw,
	// which is what its guarantee about the avoided cells needs.
	var lastPress time.Time
	pace := time.NewTimer(step)
	dropped := false
walk:
	for {
		select {
		case <-ctx.Done():
			break walk
		case <-conn.Done():
			dropped = true
			break walk
		case <-pace.C:
			if d := brain.Next(conn.View()); d != grid.None {
				conn.Press(d)
				lastPress = time.Now()
			}
			pace.Reset(step)
		}
	}
	pace.Stop()

	if !dropped {
		// Should a press have been held back all the same, it goes out
		// within one step of the last press; after that only
		// acknowledgements can come.
		quiet := lastPress.Add(step)
		bound := 2*(o.Latency+o.Jitter) + step + settleSlack
		switch settle(conn, quiet, bound) {
		case settleDropped:
			dropped = true
		case settleTimeout:
			lg.Warn("inputs still unacknowledged at the end", "pending", len(conn.View().Pending), "waited", bound)
		}
	}
	if dropped {
		err := conn.View().Err
		lg.Warn("dropped by the server", "err", err)
		r.err = fmt.Errorf("%s: dropped: %v", name, err)
	}
	r.stats = conn.Stats()
	r.in, r.out = conn.Bytes()
	r.connected = time.Since(start)
	lg.Debug("done", "sent", r.stats.InputsSent, "acked", r.stats.InputsAcked, "corrections", r.stats.Corrections)
	return r
}

// settleResult says how settle ended.
type settleResult uint8

const (
	settled       settleResult = iota // nothing pending any more
	settleTimeout                     // still pending after the bound
	settleDropped                     // the connection ended
)

// settlePoll is how often settle looks, on top of every message received.
const settlePoll = 10 * time.Millisecond

// settle waits until quiet has passed and conn has no pending input, for
// at most bound.
func settle(conn *client.Conn, quiet time.Time, bound time.Duration) settleResult {
	deadline := time.NewTimer(bound)
	defer deadline.Stop()
	poll := time.NewTicker(settlePoll)
	defer poll.Stop()
	for {
		select {
		case <-conn.Done():
			return settleDropped
		default:
		}
		if !time.Now().Before(quiet) && len(conn.View().Pending) == 0 {
			return settled
		}
		select {
		case <-conn.Changed():
		case <-poll.C:
		case <-conn.Done():
			return settleDropped
		case <-deadline.C:
			return settleTimeout
		}
	}
}
