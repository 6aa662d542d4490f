package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gridlag/ops/agones"
	"gridlag/ops/agones/sdktest"
	"gridlag/protocol"
	"gridlag/server/admit/admittest"
)

// TestAgonesGameServerAgainstTheRealSDKServer runs `gridlag -server
// -agones` with two bots against the real SDK server and follows what it
// tells Agones: Ready once the game port listens, health pings, the
// players List and the label following the bots and a TCP player who
// joins and leaves, and Shutdown after the drain that a SIGTERM starts, or
// that Agones's own Shutdown starts.
func TestAgonesGameServerAgainstTheRealSDKServer(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	sdktest.Require(t)
	bin := buildBinary(t)
	t.Run("SIGTERM", func(t *testing.T) {
		gs := startAgonesGame(t, bin)
		gs.cmd.Process.Signal(syscall.SIGTERM)
		gs.waitExit("draining why=signal")
		gs.wantShutdownAfterDrain()
	})
	t.Run("AgonesShutdown", func(t *testing.T) {
		gs := startAgonesGame(t, bin)
		must(t, gs.client.Shutdown(context.Background()))
		gs.waitExit(`draining why="agones shutdown"`)
		gs.wantShutdownAfterDrain()
	})
}

// agonesGameProcess is a gridlag -server -agones process, its SDK server, and a
// client of that SDK server to read the GameServer.
type agonesGameProcess struct {
	t      *testing.T
	sdk    *sdktest.SDKServer
	client *agones.Client
	cmd    *exec.Cmd
	log    *admittest.Log
	exited chan error
}

// startAgonesGame starts the game server with two bots, waits for it to
// be Ready, checks its game port listens, then plays one TCP player in and
// out, checking the players List, the label and the health pings.
func startAgonesGame(t *testing.T, bin string) *agonesGameProcess {
	sdk := sdktest.Start(t)
	client, err := agones.New(agones.Options{Addr: sdk.Addr, Timeout: 10 * time.Second})
	must(t, err)
	gs := &agonesGameProcess{t: t, sdk: sdk, client: client, log: &admittest.Log{}, exited: make(chan error, 1)}
	gs.cmd = exec.Command(bin, "-server", "-addr", "127.0.0.1:0", "-bots", "2", "-agones", "-agones-health", "1s", "-drain", "300ms")
	gs.cmd.Env = append(os.Environ(), agones.PortEnv+"="+strconv.Itoa(sdk.Port))
	gs.cmd.Stderr = gs.log
	must(t, gs.cmd.Start())
	go func() { gs.exited <- gs.cmd.Wait() }()
	t.Cleanup(func() {
		gs.cmd.Process.Kill()
		if t.Failed() {
			t.Logf("gridlag's log:\n%s", gs.log.String())
		}
	})

	gs.waitFor("Ready", func(s agones.GameServer) bool { return s.State == agones.StateReady })
	addr := regexp.MustCompile(`gridlag server .*\baddr=(\S+)`).FindStringSubmatch(gs.log.String())
	if addr == nil {
		t.Fatalf("the game server is Ready, but its log has no address yet")
	}
	gs.waitFor("the two bots in the players List", playersAre(2, "bot-1", "bot-2"))

	nc, err := net.DialTimeout("tcp", addr[1], time.Second)
	must(t, err)
	defer nc.Close()
	must(t, protocol.NewEncoder(nc).Encode(&protocol.Hello{Version: protocol.Version, Name: "ann"}))
	gs.waitFor("ann in the players List", playersAre(3, "bot-1", "bot-2", "ann"))
	must(t, protocol.NewEncoder(nc).Encode(&protocol.Bye{Reason: "done"}))
	gs.waitFor("ann out of the players List", playersAre(2, "bot-1", "bot-2"))

	admittest.Eventually(t, func() bool { return sdk.Count("Health Ping Received!") >= 2 }, func() string {
		return fmt.Sprintf("%d health pings, want 2 at -agones-health 1s", sdk.Count("Health Ping Received!"))
	})
	if first := sdk.Log()[firstCall(sdk.Log())].Message; first != "Ready request has been received!" {
		t.Errorf("the first call was %q, want Ready", first)
	}
	return gs
}

// playersAre is a GameServer whose players List holds exactly the names
// (each value is "id:name") and whose label players says n.
func playersAre(n int, names ...string) func(agones.GameServer) bool {
	return func(s agones.GameServer) bool {
		var got []string
		for _, v := range s.Lists[agones.PlayersList] {
			_, name, _ := strings.Cut(v, ":")
			got = append(got, name)
		}
		slices.Sort(got)
		slices.Sort(names)
		return slices.Equal(got, names) && s.Labels["agones.dev/sdk-players"] == strconv.Itoa(n)
	}
}

// firstCall returns the index of the first log line of a call a game
// server makes (after the SDK server's own start-up lines).
func firstCall(entries []sdktest.Entry) int {
	for i, e := range entries {
		if strings.HasSuffix(e.Message, "received!") || e.Message == "Setting label" || strings.Contains(e.Message, "List") {
			return i
		}
	}
	return len(entries) - 1
}

// waitFor polls the GameServer until ok, or fails naming what.
func (gs *agonesGameProcess) waitFor(what string, ok func(agones.GameServer) bool) agones.GameServer {
	gs.t.Helper()
	var s agones.GameServer
	admittest.Eventually(gs.t, func() bool {
		var err error
		s, err = gs.client.GameServer(context.Background())
		must(gs.t, err)
		return ok(s)
	}, func() string { return fmt.Sprintf("waiting for %s: the GameServer is %+v", what, s) })
	return s
}

// waitExit waits for the process to end with status 0, its log saying why
// it drained.
func (gs *agonesGameProcess) waitExit(why string) {
	gs.t.Helper()
	select {
	case err := <-gs.exited:
		if err != nil {
			gs.t.Fatalf("gridlag ended with %v, want status 0", err)
		}
	case <-time.After(10 * time.Second):
		gs.t.Fatal("gridlag did not end within 10s")
	}
	if !strings.Contains(gs.log.String(), why) {
		gs.t.Errorf("gridlag's log does not say %q", why)
	}
}

// wantShutdownAfterDrain checks the GameServer is Shutdown and that the
// game server called Shutdown only after its drain and close.
func (gs *agonesGameProcess) wantShutdownAfterDrain() {
	gs.t.Helper()
	gs.waitFor("Shutdown", func(s agones.GameServer) bool { return s.State == agones.StateShutdown })
	if gs.sdk.Count("Shutdown request has been received!") == 0 {
		gs.t.Error("the SDK server never got a Shutdown call")
	}
	log := gs.log.String()
	drain, stopped, shutdown := strings.Index(log, "agones: draining"), strings.Index(log, "INFO stopped"), strings.Index(log, "agones: shutdown")
	if drain < 0 || stopped < drain || shutdown < stopped {
		gs.t.Errorf("want the drain, the server stopped, then Shutdown, in that order; the log says:\n%s", log)
	}
}

// TestAgonesWithoutSidecarIsAClearError: with no sidecar, -agones fails
// after -agones-timeout, saying where it looked, instead of hanging.
func TestAgonesWithoutSidecarIsAClearError(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	_, port, err := net.SplitHostPort(freeAddr(t))
	must(t, err)
	t.Setenv(agones.PortEnv, port)
	err = promptly(t, func() error {
		return run([]string{"-server", "-addr", "127.0.0.1:0", "-log", os.DevNull, "-agones", "-agones-timeout", "1s"}, nil)
	})
	want := "the SDK sidecar at 127.0.0.1:" + port + " did not answer within 1s"
	if err == nil || !strings.Contains(err.Error(), want) || exitCode(err) != 1 {
		t.Fatalf("gridlag -server -agones without a sidecar: %v, want status 1 saying %q", err, want)
	}
	if err := run([]string{"-agones"}, nil); exitCode(err) != 2 || !strings.Contains(err.Error(), "-agones is for -server") {
		t.Errorf("gridlag -agones: %v, want a usage error", err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
