package tcp_test

import (
	"context"
	"testing"
	"time"

	"gridlag/client"
	"gridlag/client/tcp"
	"gridlag/grid"
)

// TestWatchOverTCP: a spectator over real TCP sees the map, a player who
// joined and the player's move with its ack number, and ends cleanly.
func TestWatchOverTCP(t *testing.T) {
	addr := startServer(t, 20)
	p, err := tcp.Dial(context.Background(), addr, tcp.Options{Options: client.Options{Name: "ada"}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	w, err := tcp.ConnectSpectator(context.Background(), addr, tcp.Options{Options: client.Options{Name: "teacher"}})
	if err != nil {
		t.Fatal(err)
	}
	waitWorld := func(what string, ok func(v client.WorldView) bool) client.WorldView {
		t.Helper()
		deadline := time.After(patience)
		for {
			v := w.View()
			if ok(v) {
				return v
			}
			select {
			case <-w.Changed():
			case <-deadline:
				t.Fatalf("no %s: %+v", what, v)
			}
		}
	}
	v := waitWorld("ada", func(v client.WorldView) bool { return len(v.Players) == 1 && v.Players[0].Name == "ada" })
	if !v.Connected || v.Map == nil || v.Rate != 20 || v.Players[0].Pos != (grid.Pos{X: 10, Y: 10}) {
		t.Fatalf("the spectator sees %+v", v)
	}
	p.Press(grid.Right)
	waitWorld("ada's move, ack #1", func(v client.WorldView) bool {
		return len(v.Players) == 1 && v.Players[0].Pos == (grid.Pos{X: 11, Y: 10}) && v.Players[0].Ack == 1
	})
	w.Close()
	select {
	case <-w.Done():
	default:
		t.Fatal("Close did not end the connection")
	}
}
