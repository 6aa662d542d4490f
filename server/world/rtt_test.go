package world

import (
	"testing"
	"time"

	player "gridlag/client"
	"gridlag/protocol"
)

// hand carries messages between a server Core and one client Core by
// hand, each way taking a fixed delay.
type hand struct {
	t        *testing.T
	srv      *Core
	cl       *player.Core
	conn     ConnID
	up, down time.Duration // client to server, server to client
}

// toServer delivers what the client has to send, sent at now.
func (h *hand) toServer(now time.Duration) {
	for _, m := range h.cl.Outbox().Messages {
		h.srv.Receive(now+h.up, h.conn, m)
	}
}

// toClient delivers what the server has for the client, sent at now.
func (h *hand) toClient(now time.Duration) {
	for _, e := range h.srv.Outbox().Envelopes {
		if e.To == h.conn {
			if err := h.cl.Receive(now+h.down, e.Msg); err != nil {
				h.t.Fatalf("client: %v", err)
			}
		}
	}
}

// pingRound has the server ping at now and the client answer.
func (h *hand) pingRound(now time.Duration) {
	h.srv.Ping(now)
	h.toClient(now)
	h.toServer(now + h.down)
}

func TestServerMeasuresRoundTripWithPings(t *testing.T) {
	h := &hand{t: t, srv: NewCore(Config{Rate: 20}), cl: player.NewCore(0, player.Options{Name: "ann"}), conn: 1, up: 30 * ms, down: 50 * ms}
	h.toServer(0)
	h.toClient(h.up)
	if !h.cl.Ready() {
		t.Fatal("the client did not join")
	}
	if p := h.srv.Overview(0, nil); len(p) != 1 || p[0].HasRTT || p[0].Name != "ann" {
		t.Fatalf("before any Ping the server shows %+v, want ann with no round trip", p)
	}
	for i := 1; i <= 3; i++ {
		h.pingRound(time.Duration(i) * time.Second)
		p := h.srv.Overview(0, nil)
		if !p[0].HasRTT || p[0].RTT != 80*ms {
			t.Fatalf("after ping %d the server shows %v (measured %v), want the 80ms round trip", i, p[0].RTT, p[0].HasRTT)
		}
	}
	if s := h.srv.Stats(); s.Pings != 3 {
		t.Errorf("%d Pings sent, want 3", s.Pings)
	}

	// A slower round trip moves the smoothed one an eighth of the way.
	h.down = 130 * ms
	h.pingRound(4 * time.Second)
	if p := h.srv.Overview(0, nil); p[0].RTT != 90*ms {
		t.Errorf("after one 160ms round trip the server shows %v, want 90ms (80 + 80/8)", p[0].RTT)
	}

	// One Ping at a time; a Pong that answers none changes nothing.
	h.srv.Ping(5 * time.Second)
	h.srv.Ping(5*time.Second + 500*ms)
	pings := 0
	for _, e := range h.srv.Outbox().Envelopes {
		if _, ok := e.Msg.(*protocol.Ping); ok {
			pings++
		}
	}
	if pings != 1 {
		t.Errorf("%d Pings in flight to one player, want 1", pings)
	}
	h.srv.Receive(6*time.Second, 1, &protocol.Pong{Stamp: uint64(4 * time.Second)})
	h.srv.Receive(6*time.Second, 1, &protocol.Pong{Stamp: 12345})
	if p := h.srv.Overview(0, nil); p[0].RTT != 90*ms {
		t.Errorf("stray Pongs moved the round trip to %v", p[0].RTT)
	}
	if s := h.srv.Stats(); s.Violations != 0 || s.Players != 1 {
		t.Errorf("stats %+v: a Pong is no violation", s)
	}

	// Spectators get it in whole milliseconds.
	o := overviewsTo(spectate(t, h.srv, 7*time.Second, 9, "teacher"), 9)
	if len(o) != 1 || o[0].Players[0].RTTMS != 90 {
		t.Errorf("the spectator's overview %+v, want ann's 90 ms", o)
	}
}

func TestRTTMS(t *testing.T) {
	for _, c := range []struct {
		rtt  time.Duration
		ok   bool
		want uint16
	}{
		{0, false, protocol.NoRTT},
		{0, true, 0},
		{1499 * time.Microsecond, true, 1},
		{1500 * time.Microsecond, true, 2},
		{time.Hour, true, protocol.NoRTT - 1},
	} {
		if got := rttMS(c.rtt, c.ok); got != c.want {
			t.Errorf("rttMS(%v, %v) = %d, want %d", c.rtt, c.ok, got, c.want)
		}
	}
}
