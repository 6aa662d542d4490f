package web

import (
	"io"
	"testing"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/server/admit/admittest"
)

// A page that stops reading (its socket's pings go unanswered, as a
// browser's do once it reads nothing) is dropped once it has read
// nothing for -web-stall, the log saying why, as a stalled SSH client
// is; a page that reads plays on.
func TestPageThatStopsReadingIsDropped(t *testing.T) {
	const stall = 2 * time.Second
	var lb admittest.Log
	s, _ := startGameWeb(t, Options{StallTimeout: stall, Logger: log.New(io.MultiWriter(&lb, admittest.Writer(t)))})
	honest := openTab(t, s, dialer{from: "127.0.0.2"}, "ada", testID(1), "/")
	honest.waitText("you (10,10)")
	mute := rawWebSession(t, s, "127.0.0.3", 2, 100, 40)
	mute.out.expect("Pending inputs")(t)
	mute.stopReading()
	stopped := time.Now()

	why := "client read nothing for 2s"
	deadline := time.Now().Add(admittest.Hung)
	for lb.Count("ending session", "remote=127.0.0.3", why) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the page that stopped reading was not dropped in %s:\n%s", admittest.Hung, lb.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Its last proof of reading came at most a ping's period before it
	// stopped.
	if took := time.Since(stopped); took < stall-stall/pingsPerStall {
		t.Errorf("dropped %s after it stopped reading, before the stall time, %s", took, stall)
	}
	for _, mute := s.sessions.Held("127.0.0.3"); mute != 0; _, mute = s.sessions.Held("127.0.0.3") {
		if time.Now().After(deadline) {
			t.Fatalf("the mute page's session is still held")
		}
		time.Sleep(10 * time.Millisecond)
	}
	honest.send("\x1b[C")
	honest.waitText("you (11,10)")
	if n := lb.Count("ending session"); n != 1 {
		t.Errorf("%d sessions ended by the server, want the mute page's alone:\n%s", n, lb.String())
	}
}
