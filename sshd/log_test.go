package sshd

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/charmbracelet/log"
)

// logBuffer is a log's output, safe to read while the server writes.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// count is the number of lines holding every one of subs.
func (l *logBuffer) count(subs ...string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, line := range strings.Split(l.b.String(), "\n") {
		if containsAll(line, subs) {
			n++
		}
	}
	return n
}

// A session's lines are summarised by address (issue 19, item 6): ten
// sessions from one address, each started and quit, write one start line
// and one end line, the others counted for the summary, while a player
// from another address gets lines of their own.
func TestSessionLinesSummarisedByAddress(t *testing.T) {
	var lb logBuffer
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
			if n := lb.count(msg, c.remote); n != c.want {
				t.Errorf("%d %q lines from %s, want %d", n, msg, c.remote, c.want)
			}
		}
	}
}
