package host

import (
	"context"
	"os"
	"os/signal"
)

// signalled is why a context of Signals ended.
type signalled struct{ sig os.Signal }

func (s signalled) Error() string { return "signal " + s.sig.String() }

// Signals returns a context that ends at the first of sigs (Ctrl-C,
// SIGTERM) and a channel of the ones after it, for Config.Hurry: a
// second Ctrl-C closes at once. stop stops catching them.
func Signals(sigs ...os.Signal) (ctx context.Context, hurry <-chan os.Signal, stop func()) {
	caught := make(chan os.Signal, 2)
	signal.Notify(caught, sigs...)
	ctx, cancel := context.WithCancelCause(context.Background())
	later, quit := make(chan os.Signal, 1), make(chan struct{})
	go func() {
		select {
		case sig := <-caught:
			cancel(signalled{sig})
		case <-quit:
			return
		}
		for {
			select {
			case sig := <-caught:
				select {
				case later <- sig:
				default: // one is waiting already
				}
			case <-quit:
				return
			}
		}
	}()
	return ctx, later, func() {
		signal.Stop(caught)
		close(quit)
		cancel(nil)
	}
}

// Why says why ctx ended, as the log's keys and values: "signal" and its
// name for a context of Signals.
func Why(ctx context.Context) []any {
	if s, ok := context.Cause(ctx).(signalled); ok {
		return []any{"signal", s.sig.String()}
	}
	return []any{"reason", context.Cause(ctx).Error()}
}
