package host

import (
	"io"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/log"
)

// TestSignalWhileClosingClosesAtOnce: a signal that comes while the
// server closes (after the drain, or with none) cuts the close's grace
// short; should the close still not be over ExitGrace later, the process
// exits with status 1, whatever holds it. A close that ends in time
// exits as ever.
func TestSignalWhileClosingClosesAtOnce(t *testing.T) {
	for _, endsInTime := range []bool{false, true} {
		sigs, exited := make(chan os.Signal, 1), make(chan int, 1)
		h := &Host{cfg: Config{Hurry: sigs, Exit: func(code int) { exited <- code }},
			log: log.New(io.Discard), done: make(chan struct{})}
		h.drain() // no drain: the close begins
		sigs <- syscall.SIGTERM
		if endsInTime {
			close(h.done)
			select {
			case code := <-exited:
				t.Errorf("exited with %d though the close ended", code)
			case <-time.After(3 * ExitGrace): // long past when it would have
			}
			continue
		}
		select {
		case code := <-exited:
			if code != 1 {
				t.Errorf("exit status %d, want 1", code)
			}
		case <-time.After(time.Minute): // a hang guard
			t.Error("the process did not exit while the close held it")
		}
	}
}
