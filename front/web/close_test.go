package web

import (
	"context"
	"testing"

	"github.com/charmbracelet/log"

	"gridlag/front/remote"
	"gridlag/server/admit/admittest"
)

// TestCloseStopsWaitingForAStuckSession: a session that will not end
// does not hold Close: the honest one beside it is told the server
// stopped, the stuck one is left behind after the grace period, counted
// (Stats.Abandoned) and said in one line, and Close returns; hurried (a
// second signal), it does not wait the grace period. The times are
// reported, not bounded.
func TestCloseStopsWaitingForAStuckSession(t *testing.T) {
	for _, hurried := range []bool{false, true} {
		var lb admittest.Log
		started, release := make(chan struct{}, 1), make(chan struct{})
		t.Cleanup(func() {
			select {
			case <-release:
			default:
				close(release)
			}
		})
		honest := sizeHandler(nil)
		s := startWeb(t, Options{Logger: log.New(&lb), Handler: func(ctx context.Context, p *remote.Player) error {
			if p.User != "stuck" {
				return honest(ctx, p)
			}
			p.Screen.Init()
			started <- struct{}{}
			<-release
			p.Screen.Fini()
			return nil
		}})
		tb := openTab(t, s, dialer{}, "ada", testID(1), "/")
		tb.waitText("hello ada")
		openTab(t, s, dialer{}, "stuck", testID(2), "/")
		<-started
		var hurry func()
		if hurried {
			hurry = s.Hurry
		}
		admittest.CloseLeavesOneBehind(t, func() { s.Close() }, hurry, remote.CloseGrace, func() uint64 { return s.Stats().Abandoned }, &lb)
		if !hurried {
			if e, _ := tb.waitEnd(); e.Reason != "server stopped" {
				t.Errorf("the honest page's end %+v, want server stopped", e)
			}
		}
		close(release)
	}
}
