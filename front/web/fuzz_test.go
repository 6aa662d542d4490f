package web

import (
	"context"
	"encoding/json"
	"io"
	"runtime"
	"testing"

	"github.com/charmbracelet/log"
	"github.com/coder/websocket"

	"gridlag/front/remote/remotetest"
	"gridlag/server/admit/admittest"
)

// FuzzWebInput: whatever a page sends as keys, on a terminal of any size
// claimed (in its hello, then the sides swapped midway), the session of
// the real game ends when the page goes and leaves no goroutine. A size
// the page never claims (0, over 10000) ends the session at once, which
// must leave nothing either. The seeds (testdata/fuzz/FuzzWebInput) are
// FuzzSSHInput's: issue 30's bytes, fragments of escape sequences,
// strings that never end, a win32-input-mode key repeated 2^31 times, q
// then a flood, zero and huge terminals; `make fuzz` looks for more.
func FuzzWebInput(f *testing.F) {
	// The servers log nowhere: the fuzzing calls the target from workers
	// where f's log may not be written.
	quiet := log.New(io.Discard)
	game := remotetest.FuzzGame(f, quiet)
	s := startWeb(f, Options{GameAddr: game, Logger: quiet, MessageRate: 1 << 20})
	n := 0
	f.Fuzz(func(t *testing.T, input []byte, cols, rows uint32) {
		baseline := runtime.NumGoroutine()
		ctx, cancel := context.WithTimeout(context.Background(), waitLong)
		defer cancel()
		c, _, err := dialer{}.dial(ctx, s)
		if err != nil {
			t.Fatalf("dial: %v", err)
		}
		c.SetReadLimit(1 << 24)
		n++
		h := hello{Name: "fuzz", ID: testID(n), Path: "/", Cols: int(cols), Rows: int(rows)}
		if err := c.Write(ctx, websocket.MessageText, mustJSON(t, h)); err != nil {
			t.Fatal(err)
		}
		// The screen is up (its first bytes came) before the keys go;
		// a size the page never claims ends the session at once.
		for {
			typ, _, err := c.Read(ctx)
			if err != nil || typ == websocket.MessageBinary {
				break
			}
		}
		go func() {
			for {
				if _, _, err := c.Read(context.Background()); err != nil {
					return
				}
			}
		}()
		half := len(input) / 2
		c.Write(ctx, websocket.MessageBinary, input[:half])
		c.Write(ctx, websocket.MessageText, mustJSON(t, size{Cols: int(rows), Rows: int(cols)}))
		c.Write(ctx, websocket.MessageBinary, input[half:])
		c.CloseNow() // the page goes
		admittest.Settle(t, baseline, func() int { return s.Stats().Sessions })
	})
}

// mustJSON is v as the page sends it.
func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
