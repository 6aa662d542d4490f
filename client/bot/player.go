package bot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/client/tcp"
	"gridlag/grid"
)

// defaultStep is the pace of a bot whose server sent no speed limit.
const defaultStep = 100 * time.Millisecond

// play runs bot i (from 1): it connects (unless ctx ends first), walks
// until walk is done, stops pressing, waits (bounded) for its inputs to be
// acknowledged and closes.
func play(ctx, walk context.Context, o Options, i int) (r botResult) {
	name := o.name(i)
	lg := o.Logger.With("bot", name)

	// Dial is bounded: the TCP connect by tcp.DialTimeout, the
	// handshake by the client's silence timeout.
	conn, err := tcp.Dial(ctx, o.Addr, tcp.Options{Options: o.clientOptions(i), Dial: o.Dial})
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
	b := o.newBot(i, 0, v)
	dropped := drive(walk, conn, b, start)
	return outcome(lg, name, conn, b, dropped, time.Since(start))
}

// drive runs b on s on the wall clock, from start, until b is done or s
// ends (dropped); the end of ctx stops the walk.
func drive(ctx context.Context, s Client, b *Bot, start time.Time) (dropped bool) {
	now := func() time.Duration { return time.Since(start) }
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	stop := ctx.Done()
	for {
		select {
		case <-s.Done():
			return true
		default:
		}
		wake, done := turn(s, b, now())
		if done {
			return false
		}
		timer.Reset(max(wake-now(), 0)) // since Go 1.23 a reset timer never delivers a stale tick
		select {
		case <-stop:
			b.Stop(now())
			stop = nil
		case <-s.Done():
			return true
		case <-s.Changed():
		case <-timer.C:
		}
	}
}

// turn gives b its turn on s at time now: a zap if it aims and the
// reaction time is over, then a press. It returns when b wants its next
// turn, and whether it is done.
func turn(s Client, b *Bot, now time.Duration) (wake time.Duration, done bool) {
	v := s.View()
	zap, aim, aiming := b.Aim(now, v)
	if zap {
		s.Zap()
		v = s.View() // with the zap pending
	}
	press, wake, done := b.Next(now, v)
	if press != grid.None {
		s.Press(press)
	}
	if aiming {
		wake = min(wake, aim)
	}
	return wake, done
}

// outcome is what a bot that played on s for connected brings back, and
// logs how it ended.
func outcome(lg *log.Logger, name string, s Client, b *Bot, dropped bool, connected time.Duration) botResult {
	r := botResult{played: true, stats: s.Stats(), connected: connected}
	r.in, r.out = s.Bytes()
	switch {
	case dropped:
		err := s.View().Err
		lg.Warn("dropped by the server", "err", err)
		r.err = fmt.Errorf("%s: dropped: %v", name, err)
	case b.Unsettled():
		lg.Warn("inputs still unacknowledged at the end", "pending", len(s.View().Pending), "waited", b.settle)
	}
	lg.Debug("done", "sent", r.stats.InputsSent, "acked", r.stats.InputsAcked, "corrections", r.stats.Corrections)
	return r
}
