package sshd

import (
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/charmbracelet/log"
	gossh "golang.org/x/crypto/ssh"

	"gridlag/front/remote/remotetest"
	"gridlag/server/admit/admittest"
)

// FuzzSSHInput: whatever a player's terminal sends, on a terminal of any
// size claimed (its window changed midway, the sides swapped), the
// session of the real game ends when its client goes and leaves no
// goroutine. An input of even length ends first (EOF, as ssh -tt's when
// its own ends), which ends the session once it took it all; then, or at
// once for an odd length, the client goes. The seeds (testdata/fuzz/FuzzSSHInput) are issue 30's bytes
// (0xff, ff fe fd, a lone lead byte), fragments of escape sequences,
// strings that never end, a win32-input-mode key repeated 2^31 times, q
// then a flood, zero and huge windows; they run with the package's tests,
// and `make fuzz` (go test -fuzz FuzzSSHInput ./sshd) looks for more.
func FuzzSSHInput(f *testing.F) {
	// The servers log nowhere: the fuzzing calls the target from workers
	// where f's log may not be written.
	quiet := log.New(io.Discard)
	game := remotetest.FuzzGame(f, quiet)
	s := startSSH(f, Options{GameAddr: game, MaxPerAddr: 64, Logger: quiet})
	f.Fuzz(func(t *testing.T, input []byte, cols, rows uint32) {
		baseline := runtime.NumGoroutine()
		c := dialSSH(t, s, "fuzz", nil)
		sess, err := c.NewSession()
		if err != nil {
			t.Fatal(err)
		}
		if err := sess.RequestPty("xterm-256color", int(rows), int(cols), gossh.TerminalModes{}); err != nil {
			t.Fatal(err)
		}
		in, out := pipes(t, sess)
		if err := sess.Shell(); err != nil {
			t.Fatal(err)
		}
		// The screen is up (its first bytes came) before the input goes.
		if _, err := out.Read(make([]byte, 1)); err != nil {
			t.Fatalf("the session drew nothing: %v", err)
		}
		go io.Copy(io.Discard, out)
		half := len(input) / 2
		in.Write(input[:half])
		sess.WindowChange(int(cols), int(rows))
		in.Write(input[half:])
		if len(input)%2 == 0 {
			// The input ends first (as ssh -tt's when its own ends):
			// the session takes it all, then ends.
			in.Close()
			ended := make(chan error, 1)
			go func() { ended <- sess.Wait() }()
			select {
			case <-ended:
			case <-time.After(waitLong): // a hang guard
				t.Fatalf("the session did not end %v after its input did", waitLong)
			}
		}
		c.Close() // the client goes
		admittest.Settle(t, baseline, func() int { return s.Stats().Sessions })
	})
}
