package sshd

import (
	"runtime"
	"testing"
	"time"

	"gridlag/server/admit/admittest"
)

// Sessions that end every way (q, a dropped connection, a refusal) leave
// no goroutine behind, and Close ends the sessions still running.
func TestSessionsLeakNoGoroutines(t *testing.T) {
	s := startSSH(t, Options{Handler: echoHandler(nil), MaxPerAddr: 64})
	baseline := runtime.NumGoroutine()
	for i := range 20 {
		c := dialSSH(t, s, "ada", nil)
		tm := openTerm(t, c, "xterm-256color", 80, 24)
		tm.waitText("hello ada")
		switch i % 3 {
		case 0:
			tm.send("q")
			tm.waitExit(time.Now())
		case 1:
			// A dropped connection: no goodbye at all.
		case 2:
			sess, _ := c.NewSession()
			sess.Run("") // refused: no terminal
		}
		c.Close()
	}
	admittest.Settle(t, baseline, nil)

	// Sessions still running when the server closes end with it.
	var terms []*term
	for range 3 {
		tm := openTerm(t, dialSSH(t, s, "ada", nil), "xterm-256color", 80, 24)
		tm.waitText("hello ada")
		terms = append(terms, tm)
	}
	if !admittest.Ends(func() { s.Close() }) {
		t.Fatal("Close did not return with sessions running")
	}
	for _, tm := range terms {
		tm.waitText("gridlag: server stopped")
		if status, _ := tm.waitExit(time.Now()); status != 0 {
			t.Errorf("exit status %d when the server closed, want 0: a normal stop", status)
		}
	}
	admittest.Settle(t, baseline, nil)
}
