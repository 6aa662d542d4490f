package web

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/admit/admittest"
	"gridlag/remote"
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
		begun := time.Now()
		if hurried {
			s.Hurry()
		}
		if !admittest.Ends(func() { s.Close() }) {
			close(release)
			t.Fatal("Close did not return with a session that will not end")
		}
		took := time.Since(begun)
		t.Logf("hurried %v: Close returned after %v (grace %v)", hurried, took, remote.CloseGrace+remote.CutGrace)
		if !hurried && took < remote.CloseGrace {
			t.Errorf("Close returned after %v, before the grace period (%v)", took, remote.CloseGrace)
		}
		if n := s.Stats().Abandoned; n != 1 {
			t.Errorf("%d sessions abandoned, want 1", n)
		}
		if !strings.Contains(lb.String(), "sessions=1") || lb.Count("did not end after their connections were closed") != 1 {
			t.Errorf("the log does not say one session was left behind:\n%s", lb.String())
		}
		if !hurried {
			if e, _ := tb.waitEnd(); e.Reason != "server stopped" {
				t.Errorf("the honest page's end %+v, want server stopped", e)
			}
		}
		close(release)
	}
}
