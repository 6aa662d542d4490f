package agones_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"gridlag/ops/agones"
	"gridlag/ops/agones/sdktest"
	"gridlag/server/admit/admittest"
)

// hung is the hang guard of these tests: long past anything they wait
// for, on any machine.
const hung = 30 * time.Second

// served is a Game serving in the background against the real SDK
// server, and what its ending did.
type served struct {
	t      *testing.T
	sdk    *sdktest.SDKServer
	client *agones.Client
	game   *agones.Game
	stop   chan os.Signal
	failed chan error
	done   chan error

	mu    sync.Mutex
	steps []string // "drain", "close", in the order Serve called them
}

func serve(t *testing.T) *served {
	t.Helper()
	sdk := sdktest.Start(t)
	client, err := agones.New(agones.Options{Addr: sdk.Addr, Timeout: 10 * time.Second})
	must(t, err)
	game, err := agones.NewGame(agones.Options{Addr: sdk.Addr, Timeout: 10 * time.Second})
	must(t, err)
	s := &served{t: t, sdk: sdk, client: client, game: game, stop: make(chan os.Signal, 2), failed: make(chan error, 1), done: make(chan error, 1)}
	step := func(name string) func() {
		return func() {
			s.mu.Lock()
			s.steps = append(s.steps, name)
			s.mu.Unlock()
		}
	}
	go func() {
		s.done <- game.Serve(s.stop, s.failed, agones.Ending{Drain: step("drain"), For: time.Second, Close: step("close")})
	}()
	s.waitFor("Ready", func(gs agones.GameServer) bool { return gs.State == agones.StateReady })
	return s
}

// waitFor polls the GameServer until ok, or fails naming what.
func (s *served) waitFor(what string, ok func(agones.GameServer) bool) {
	s.t.Helper()
	var gs agones.GameServer
	admittest.Eventually(s.t, func() bool {
		var err error
		gs, err = s.client.GameServer(context.Background())
		must(s.t, err)
		return ok(gs)
	}, func() string { return fmt.Sprintf("waiting for %s: the GameServer is %+v", what, gs) })
}

// end waits for Serve to return and checks it drained and closed the
// game, in that order, before the GameServer was Shutdown.
func (s *served) end(want []string) error {
	s.t.Helper()
	var err error
	select {
	case err = <-s.done:
	case <-time.After(hung):
		s.t.Fatal("Serve did not return")
	}
	s.waitFor("Shutdown", func(gs agones.GameServer) bool { return gs.State == agones.StateShutdown })
	s.mu.Lock()
	defer s.mu.Unlock()
	if !slices.Equal(s.steps, want) {
		s.t.Errorf("Serve's ending called %v, want %v", s.steps, want)
	}
	return err
}

// A game's players, joined and left, are the players List and the label;
// its beats are health pings; a signal drains and closes it, then shuts
// it down.
func TestGameAgainstTheRealSDKServer(t *testing.T) {
	s := serve(t)
	s.game.Joined("1:ann")
	s.game.Joined("2:bob")
	s.game.Left("1:ann")
	s.waitFor("bob alone in the players List", func(gs agones.GameServer) bool {
		return slices.Equal(gs.Lists[agones.PlayersList], []string{"2:bob"}) && gs.Labels["agones.dev/sdk-players"] == strconv.Itoa(1)
	})
	admittest.Eventually(t, func() bool { s.game.Beat(); return s.sdk.Count("Health Ping Received!") >= 2 },
		func() string { return "the beats never became two health pings" })
	s.stop <- os.Interrupt
	if err := s.end([]string{"drain", "close"}); err != nil {
		t.Errorf("Serve after a signal: %v, want nil", err)
	}
}

// Agones's own Shutdown drains and closes the game as a signal does.
func TestGameShutdownByAgones(t *testing.T) {
	s := serve(t)
	must(t, s.client.Shutdown(context.Background()))
	if err := s.end([]string{"drain", "close"}); err != nil {
		t.Errorf("Serve after Agones's Shutdown: %v, want nil", err)
	}
}

// A game server that fails is shut down at once, its error returned.
func TestGameFailureShutsDown(t *testing.T) {
	s := serve(t)
	boom := errors.New("boom")
	s.failed <- boom
	if err := s.end(nil); !errors.Is(err, boom) {
		t.Errorf("Serve after a failure: %v, want boom", err)
	}
}
