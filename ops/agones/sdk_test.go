package agones_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"gridlag/ops/agones"
	"gridlag/ops/agones/sdktest"
)

// TestCallsAgainstTheRealSDKServer makes every call of a game server's
// life against the real SDK server in local mode, and checks each by the
// GameServer it leaves and the SDK server's log.
func TestCallsAgainstTheRealSDKServer(t *testing.T) {
	sdk := sdktest.Start(t)
	c, err := agones.New(agones.Options{Addr: sdk.Addr, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	shutdown := c.WatchShutdown(ctx)

	must(t, c.Ready(ctx))
	must(t, c.Health(ctx))
	must(t, c.Health(ctx))
	must(t, c.PlayerConnect(ctx, "1:ann"))
	must(t, c.PlayerConnect(ctx, "2:bob"))
	must(t, c.PlayerDisconnect(ctx, "1:ann"))
	must(t, c.SetLabel(ctx, "players", "1"))
	if err := c.PlayerDisconnect(ctx, "1:ann"); err == nil {
		t.Error("removing a player twice succeeded")
	}
	gs, err := c.GameServer(ctx)
	must(t, err)
	if gs.State != agones.StateReady {
		t.Errorf("state %q after Ready, want Ready", gs.State)
	}
	if got := gs.Lists[agones.PlayersList]; !slices.Equal(got, []string{"2:bob"}) {
		t.Errorf("players list %q, want [2:bob]", got)
	}
	if got := gs.Labels["agones.dev/sdk-players"]; got != "1" {
		t.Errorf("label agones.dev/sdk-players=%q, want 1", got)
	}
	if n := sdk.Count("Health Ping Received!"); n != 2 {
		t.Errorf("the SDK server logged %d health pings, want 2", n)
	}

	select {
	case <-shutdown:
		t.Fatal("WatchShutdown fired before Shutdown")
	default:
	}
	must(t, c.Shutdown(ctx))
	select {
	case <-shutdown:
	case <-time.After(10 * time.Second):
		t.Fatal("WatchShutdown did not fire after Shutdown")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
