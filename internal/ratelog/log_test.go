package ratelog

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/log"
)

// fakeClock is a virtual clock.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time      { return c.t }
func (c *fakeClock) add(d time.Duration) { c.t = c.t.Add(d) }
func newLog(buf *bytes.Buffer) (*Log, *fakeClock) {
	clk := &fakeClock{t: time.Unix(1000, 0)}
	l := log.New(buf)
	return New(l, 10*time.Second, clk.now), clk
}

func lines(buf *bytes.Buffer) []string {
	s := strings.TrimSpace(buf.String())
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// A flood of one event writes one line at once and one summary with the
// count when its interval ends; a different reason is logged at once.
func TestFloodIsSummarised(t *testing.T) {
	var buf bytes.Buffer
	r, clk := newLog(&buf)
	for i := 0; i < 6321; i++ {
		r.Warn("cap 127.0.0.5", "refused connection: per-address cap", "remote", "127.0.0.5")
		clk.add(time.Millisecond)
	}
	r.Warn("full", "refused connection: server busy")
	got := lines(&buf)
	if len(got) != 2 || !strings.Contains(got[0], "per-address cap") || !strings.Contains(got[1], "server busy") {
		t.Fatalf("during the flood the log has %d lines, want the first event and the other reason:\n%s", len(got), buf.String())
	}
	r.Flush() // 6.3 s in: the interval is still open
	if n := len(lines(&buf)); n != 2 {
		t.Fatalf("a summary came before its interval ended:\n%s", buf.String())
	}
	clk.add(4 * time.Second)
	r.Flush()
	got = lines(&buf)
	if len(got) != 3 {
		t.Fatalf("after the interval the log has %d lines, want 3:\n%s", len(got), buf.String())
	}
	if !strings.Contains(got[2], "more=6320") || !strings.Contains(got[2], "per-address cap") || !strings.Contains(got[2], "127.0.0.5") {
		t.Errorf("summary line %q does not give the count of repeats and the reason", got[2])
	}
	if strings.Contains(buf.String(), "server busy (repeated)") {
		t.Errorf("an event that did not repeat got a summary:\n%s", buf.String())
	}
	// The next event of the key, later, is logged at once again.
	r.Warn("cap 127.0.0.5", "refused connection: per-address cap", "remote", "127.0.0.5")
	if n := len(lines(&buf)); n != 4 {
		t.Errorf("the first event of a new interval was not logged at once:\n%s", buf.String())
	}
}

// Many distinct keys cannot grow the log's memory past MaxKeys, and the
// events beyond it are still counted in a summary.
func TestKeysAreBounded(t *testing.T) {
	var buf bytes.Buffer
	r, clk := newLog(&buf)
	for i := 0; i < MaxKeys+500; i++ {
		r.Warn(fmt.Sprint("addr ", i), "refused", "i", i)
	}
	if len(r.entries) > MaxKeys+1 {
		t.Fatalf("%d entries for %d keys, want at most %d", len(r.entries), MaxKeys+500, MaxKeys+1)
	}
	if n := len(lines(&buf)); n != MaxKeys {
		t.Fatalf("%d lines at once, want %d (one per remembered key)", n, MaxKeys)
	}
	clk.add(10 * time.Second)
	r.Flush()
	last := lines(&buf)[len(lines(&buf))-1]
	if !strings.Contains(last, "more=500") {
		t.Errorf("the events beyond MaxKeys are not summarised: last line %q", last)
	}
	if len(r.entries) != 0 {
		t.Errorf("%d entries remain after every interval ended", len(r.entries))
	}
}

// Info events are summarised as warnings are, at info level.
func TestInfoIsSummarisedAtInfoLevel(t *testing.T) {
	var buf bytes.Buffer
	r, clk := newLog(&buf)
	for range 5 {
		r.Info("resume 127.0.0.7", "resume", "remote", "127.0.0.7")
	}
	clk.add(11 * time.Second)
	r.Flush()
	got := lines(&buf)
	if len(got) != 2 || !strings.HasPrefix(got[0], "INFO") || !strings.HasPrefix(got[1], "INFO") || !strings.Contains(got[1], "more=4") {
		t.Fatalf("five info events: want the first and a summary of 4 more, at info level:\n%s", buf.String())
	}
}
