package host

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"gridlag/internal/cli"
	"gridlag/server/admit/admittest"
)

// until polls url until it answers code with a body that begins with
// text (a long hang guard, not a speed bound).
func until(t *testing.T, url string, code int, text string) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(5 * time.Millisecond) {
		got, body, err := admittest.Get(url)
		if err == nil && got == code && strings.HasPrefix(body, text) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET %s: %d %q %v, want %d %q", url, got, body, err, code, text)
		}
	}
}

// TestBusyPortFailsBeforeAnythingStarts: a busy address fails the start,
// naming its flag, and every address bound before it is free again:
// nothing was left listening.
func TestBusyPortFailsBeforeAnythingStarts(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	game, ssh := admittest.FreeAddr(t), admittest.FreeAddr(t)
	c := Config{Addr: game, SSHAddr: ssh, HealthAddr: busy.Addr().String()}
	c.SSH.HostKeyPath = filepath.Join(t.TempDir(), "key")
	_, err = Start(c)
	if want := "-health " + busy.Addr().String() + ": "; err == nil || !strings.HasPrefix(err.Error(), want) || !errors.Is(err, syscall.EADDRINUSE) {
		t.Fatalf("Start with -health busy: %v, want %q and address in use", err, want)
	}
	for _, addr := range []string{game, ssh} {
		ln, err := net.Listen("tcp", addr)
		if err != nil {
			t.Errorf("%s is still held after the failed start: %v", addr, err)
			continue
		}
		ln.Close()
	}

	c = Config{Addr: busy.Addr().String()}
	if _, err := Start(c); err == nil || !strings.HasPrefix(err.Error(), "-addr "+busy.Addr().String()+": ") {
		t.Errorf("Start with -addr busy: %v", err)
	}
}

// TestRunDrainsThenCloses: Run serves until its context ends, then the
// server drains (its /readyz says so) until the drain's end, then every
// service closes and Run returns nil.
func TestRunDrainsThenCloses(t *testing.T) {
	fire := make(chan time.Time)
	health := admittest.FreeAddr(t)
	game := admittest.FreeAddr(t)
	c := Config{Addr: game, HealthAddr: health, Drain: 10 * time.Second,
		After: func(d time.Duration) <-chan time.Time {
			if d == PeopleCheck {
				return nil // the player stays
			}
			if d != 10*time.Second {
				t.Errorf("a drain of %v, want 10s", d)
			}
			return fire
		}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- Run(ctx, c) }()
	url := "http://" + health
	until(t, url+"/readyz", 200, "ready: 0 of ")
	join(t, game) // someone to warn
	until(t, url+"/readyz", 200, "ready: 1 of ")
	cancel()
	until(t, url+"/readyz", 503, "draining: server stopping in ")
	select {
	case err := <-done:
		t.Fatalf("Run returned %v before the drain ended", err)
	default:
	}
	fire <- time.Time{}
	if err := <-done; err != nil {
		t.Errorf("Run: %v, want nil after a clean stop", err)
	}
	if code, body, err := admittest.Get(url + "/healthz"); err == nil {
		t.Errorf("after Run: /healthz answered %d %q", code, body)
	}
}

// TestHurryEndsTheDrain: a second signal (Config.Hurry) ends the drain at
// once.
func TestHurryEndsTheDrain(t *testing.T) {
	hurry := make(chan os.Signal, 1)
	c := Config{Addr: "127.0.0.1:0", Drain: time.Hour, Hurry: hurry}
	h, err := Start(c)
	if err != nil {
		t.Fatal(err)
	}
	join(t, h.Addr()) // someone to warn: a drain
	hurry <- syscall.SIGTERM
	h.Stop("reason", "test") // returns: the drain of an hour ended at once
}

// TestServerFlagsCheck: the checks between a server's flags refuse what
// cannot work, saying why.
func TestServerFlagsCheck(t *testing.T) {
	for args, want := range map[string]string{
		"-pprof":              "-pprof serves the profiler on the -metrics address: give -metrics ADDR",
		"-teachers keys":      "-teachers names teachers by their SSH keys: give -ssh too",
		"-addr=":              `-addr "" needs -ssh or -web: nobody could join`,
		"-send-queue 100":     "-send-queue 100 must be more than 2048",
		"-map x -map-gen 8x8": "-map and -map-gen do not go together",
	} {
		var c Config
		fs := cli.New("gridlag serve")
		c.RegisterFlags(fs)
		c.RegisterServerFlags(fs)
		if _, err := fs.Parse(strings.Fields(args)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", args, err, want)
		}
	}
}
