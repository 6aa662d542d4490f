package server

import (
	"strings"
	"testing"
	"time"

	"gridlag/protocol"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// TestHealthFollowsTheWorld: a serving server is live and ready; a full
// default room, then a drain, make it not ready but still live; a world
// stuck (here in OnEvent, on a join) makes it neither, and it is live again
// once the world goes on; a closed server is not live.
func TestHealthFollowsTheWorld(t *testing.T) {
	const every = 5 * time.Millisecond
	stuck, release := make(chan struct{}), make(chan struct{})
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{MaxPlayers: 1}}, HeartbeatInterval: every})
	says := func(what string, check func(Health, time.Time) (bool, string), want bool, text string) {
		t.Helper()
		var why string
		eventually(t, func() bool {
			var ok bool
			ok, why = check(ts.Health(), time.Now())
			return ok == want && strings.HasPrefix(why, text)
		}, func() string { return what + " says " + why + ", want " + text })
	}
	says("a fresh server's Live", Health.Live, true, "ok")
	says("a fresh server's Ready", Health.Ready, true, "ready: 0 of 1 players")

	c := dial(t, ts)
	c.join("ann")
	says("Ready with the one slot taken", Health.Ready, false, "full: 1 of 1 players")
	c.send(&protocol.Bye{})
	says("Ready once ann left", Health.Ready, true, "ready: 0 of 1 players")

	ts.Drain(10 * time.Second)
	if ok, why := ts.Health().Ready(time.Now()); ok || why != "draining: server stopping in 10 s" {
		t.Errorf("Ready right after Drain: %v, %q", ok, why)
	}
	says("Live while draining", Health.Live, true, "ok")

	// A second server, whose world gets stuck on a join.
	ts2 := startServer(t, Options{HeartbeatInterval: every, OnEvent: func(ev world.Event) {
		if ev.Kind == world.EventJoin {
			close(stuck)
			<-release
		}
	}})
	c2 := dial(t, ts2)
	c2.send(&protocol.Hello{Version: protocol.Version, Name: "stuck"})
	<-stuck
	says2 := func(want bool, text string) {
		t.Helper()
		var why string
		eventually(t, func() bool {
			var ok bool
			ok, why = ts2.Health().Live(time.Now())
			return ok == want && strings.HasPrefix(why, text)
		}, func() string { return "Live says " + why + ", want " + text })
	}
	says2(false, "stalled: the world's last heartbeat was ")
	if ok, why := ts2.Health().Ready(time.Now()); ok || !strings.HasPrefix(why, "stalled") {
		t.Errorf("Ready of a stalled world: %v, %q", ok, why)
	}
	close(release)
	says2(true, "ok")
	ts2.Close()
	if ok, why := ts2.Health().Live(time.Now()); ok || why != "not serving" {
		t.Errorf("Live after Close: %v, %q", ok, why)
	}
}
