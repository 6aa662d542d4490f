package remote

import (
	"errors"
	"sync"
	"testing"

	"github.com/charmbracelet/log"

	"gridlag/server/admit/admittest"
)

// TestLifecycleClose: Close stops the listening, tells the sessions to
// end, waits for them and every goroutine, once; nothing starts after.
func TestLifecycleClose(t *testing.T) {
	var mu sync.Mutex
	var lb admittest.Log
	l := NewLifecycle("test", log.New(&lb), &mu)
	if !l.Track(true) {
		t.Fatal("a session is refused before Close")
	}
	l.WG.Go(func() {
		defer l.Untrack(true)
		<-l.Ctx.Done() // a session that ends when told to
	})
	if n := l.Running(); n != 1 {
		t.Fatalf("%d sessions run, want 1", n)
	}
	stopErr := errors.New("listener")
	stops, cuts := 0, 0
	c := Closing{Stop: func() error { stops++; return stopErr }, Cut: func() { cuts++ }}
	if err := l.Close(c); !errors.Is(err, stopErr) {
		t.Errorf("Close = %v, want the listener's error", err)
	}
	if err := l.Close(c); err != nil {
		t.Errorf("a second Close = %v, want nil", err)
	}
	if stops != 1 || cuts != 1 {
		t.Errorf("the listening stopped %d times and the connections were cut %d times, want once each", stops, cuts)
	}
	if !l.Closed() || l.Track(false) || l.Track(true) {
		t.Error("the server counts new goroutines after Close")
	}
	if n, a := l.Running(), l.Abandoned(); n != 0 || a != 0 {
		t.Errorf("%d sessions run and %d were left behind after Close, want none", n, a)
	}
	if lb.Count("test server closed") != 1 {
		t.Errorf("the log does not say the server closed once:\n%s", lb.String())
	}
}

// TestLifecycleHurriedLeavesOneBehind: a session that ignores everything
// is left behind, counted and logged once; hurried, Close does not wait
// out the grace period.
func TestLifecycleHurriedLeavesOneBehind(t *testing.T) {
	var mu sync.Mutex
	var lb admittest.Log
	l := NewLifecycle("test", log.New(&lb), &mu)
	stuck := make(chan struct{})
	defer close(stuck)
	l.Track(true)
	go func() {
		defer l.Untrack(true)
		<-stuck
	}()
	admittest.CloseLeavesOneBehind(t, func() { l.Close(Closing{Stop: func() error { return nil }, Cut: func() {}}) },
		l.Hurry, CloseGrace, l.Abandoned, &lb)
}
