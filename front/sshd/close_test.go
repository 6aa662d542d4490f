package sshd

import (
	"context"
	"testing"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/front/remote"
	"gridlag/server/admit/admittest"
)

// stuckHandler is a session held by a defect: it starts its screen, then
// ignores everything, its end and its connection's, until release is
// closed (at the end of the test).
func stuckHandler(started chan<- struct{}, release <-chan struct{}) func(context.Context, *Player) error {
	return func(_ context.Context, p *Player) error {
		p.Screen.Init()
		started <- struct{}{}
		<-release
		p.Screen.Fini()
		return nil
	}
}

// TestCloseStopsWaitingForAStuckSession: a session that will not end
// does not hold Close: the honest session beside it ends as ever (told the
// server stopped, status 0), the stuck one is left behind after the grace
// period, counted (Stats.Abandoned, the metric's source) and said in one
// line; Close returns. Hurried (a second signal), Close does not wait the
// grace period. The times are reported, not bounded: a busy machine is
// slow.
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
		stuck := stuckHandler(started, release)
		honest := echoHandler(nil)
		s := startSSH(t, Options{Logger: log.New(&lb), Handler: func(ctx context.Context, p *Player) error {
			if p.User == "stuck" {
				return stuck(ctx, p)
			}
			return honest(ctx, p)
		}})
		tm := openTerm(t, dialSSH(t, s, "ada", nil), "xterm-256color", 80, 24)
		tm.waitText("hello ada")
		openTerm(t, dialSSH(t, s, "stuck", nil), "xterm-256color", 80, 24)
		<-started
		var hurry func()
		if hurried {
			hurry = s.Hurry
		}
		admittest.CloseLeavesOneBehind(t, func() { s.Close() }, hurry, remote.CloseGrace, func() uint64 { return s.Stats().Abandoned }, &lb)
		if !hurried {
			tm.waitText("gridlag: server stopped")
			if status, _ := tm.waitExit(time.Now()); status != 0 {
				t.Errorf("the honest session's exit status %d, want 0", status)
			}
		}
		close(release)
	}
}
