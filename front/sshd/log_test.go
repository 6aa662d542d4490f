package sshd

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/log"

	"gridlag/server/admit/admittest"
)

// A session's lines are summarised by address (issue 19, item 6): ten
// sessions from one address, each started and quit, write one start line
// and one end line, the others counted for the summary, while a player
// from another address gets lines of their own.
func TestSessionLinesSummarisedByAddress(t *testing.T) {
	var lb admittest.Log
	s := startSSH(t, Options{Handler: echoHandler(nil), Logger: log.New(&lb)})
	for i := range 10 {
		playFrom(t, s, "127.0.0.2", fmt.Sprintf("mob%d", i)).quitAtOnce()
	}
	playFrom(t, s, "127.0.0.3", "ada").quitAtOnce()
	for _, c := range []struct {
		remote string
		want   int
	}{{"remote=127.0.0.2:", 1}, {"remote=127.0.0.3:", 1}} {
		for _, msg := range []string{"session start", "session end"} {
			if n := lb.Count(msg, c.remote); n != c.want {
				t.Errorf("%d %q lines from %s, want %d", n, msg, c.remote, c.want)
			}
		}
	}
}
