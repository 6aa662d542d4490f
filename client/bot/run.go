package bot

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/charmbracelet/log"
)

// Run connects opts.N bots to the server at opts.Addr and lets them walk
// for opts.Duration (until ctx is done if it is 0, or sooner if ctx ends
// first). Then each bot stops pressing, waits a bounded time for its
// inputs to be acknowledged, and closes. Run returns when every bot has
// ended, with what they measured.
//
// A bot that fails to connect or is dropped by the server is listed in
// Summary.Errors; the others go on. A bot's connection is not bounded by
// the walk's duration (a busy server may take longer to welcome it): one
// welcomed after the walk ended leaves at once. Run returns an error for invalid
// options, and when no bot could connect at all.
func Run(ctx context.Context, opts Options) (Summary, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return Summary{Errors: []string{}}, err
	}
	start := time.Now()
	walk := ctx
	if o.Duration > 0 {
		var cancel context.CancelFunc
		walk, cancel = context.WithTimeout(ctx, o.Duration)
		defer cancel()
	}
	o.Logger.Info("bots starting", "n", o.N, "addr", o.Addr, "latency", o.Latency, "jitter", o.Jitter, "seed", o.Seed)
	results := make([]botResult, o.N)
	var wg sync.WaitGroup
	for i := range results {
		wg.Go(func() { results[i] = play(ctx, walk, o, i+1) })
	}
	wg.Wait()
	s := summarize(results, time.Since(start))
	o.Logger.Info("bots done", "bots", s.Bots, "took", s.Duration.Round(time.Millisecond),
		"sent", s.InputsSent, "acked", s.InputsAcked, "corrections", s.Corrections, "errors", len(s.Errors))
	if s.Bots == 0 && len(s.Errors) > 0 {
		return s, fmt.Errorf("bot: none of the %d bots could play on %s; first error: %s", o.N, o.Addr, s.Errors[0])
	}
	return s, nil
}

// Start runs bots in the background, as Run does, and returns at once.
// The bots walk until stop is called, ctx is done or opts.Duration has
// passed; a bot the server drops (the server closed, say) logs it and
// ends, and the others go on. stop ends the run, waits for every bot to
// close and returns the Summary; it may be called more than once, and
// after the bots have ended by themselves.
func Start(ctx context.Context, opts Options) (stop func() Summary) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	var s Summary
	go func() {
		defer close(done)
		var err error
		s, err = Run(ctx, opts)
		if err != nil {
			lg := opts.Logger
			if lg == nil {
				lg = log.New(io.Discard)
			}
			lg.Error("bots", "err", err)
			if len(s.Errors) == 0 {
				s.Errors = append(s.Errors, err.Error())
			}
		}
	}()
	return func() Summary {
		cancel()
		<-done
		return s
	}
}
