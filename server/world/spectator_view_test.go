package world

import (
	"testing"
	"time"

	player "gridlag/client"
	"gridlag/grid"
	"gridlag/protocol"
)

// TestSpectatorCoreShowsTheServersView: the client's spectator core, fed
// what this Core sends, shows the world the Core holds.
func TestSpectatorCoreShowsTheServersView(t *testing.T) {
	srv := NewCore(Config{Rate: 20})
	join(t, srv, 0, 1, "ann", false)
	sp := player.NewSpectator(0, player.Options{Name: "teacher"})
	deliver := func(now time.Duration) {
		for _, m := range sp.Outbox().Messages {
			srv.Receive(now, 9, m)
		}
		for _, e := range srv.Outbox().Envelopes {
			if e.To == 9 {
				if err := sp.Receive(now, e.Msg); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	deliver(0)
	srv.Receive(time.Second, 1, &protocol.Input{Seq: 1, Dir: grid.Down})
	srv.Tick(time.Second + 50*ms)
	deliver(time.Second + 50*ms)

	v := sp.View(time.Second + 50*ms)
	facts := srv.Overview(0, nil)
	if !v.Connected || v.Rate != 20 || v.Tick != uint32(srv.Stats().Ticks) || v.Time != time.Second+50*ms || len(v.Players) != 1 {
		t.Fatalf("spectator view %+v", v)
	}
	got, want := v.Players[0], facts[0]
	if got.ID != want.ID || got.Name != want.Name || got.Pos != want.Pos || got.Ack != 1 || got.Pos != (grid.Pos{X: 10, Y: 11}) || got.HasRTT {
		t.Errorf("the spectator sees %+v, the server holds %+v; want ann at (10,11), ack 1, no round trip yet", got, want)
	}
}
