package server

import (
	"context"
	"net"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// TestTCPCannotTeach: over the game port, whatever a client says, it is
// no teacher: its Teach is refused, saying why, and so is a Conditions
// from a player; a connection DialTeacher opened (the SSH front end's
// for a key the operator named) teaches, and its network holds for the
// TCP player: a RIGHT is acknowledged no sooner than the round trip set.
func TestTCPCannotTeach(t *testing.T) {
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20}}})
	forger := dial(t, ts)
	forger.send(&protocol.Teach{Version: protocol.Version, Name: "mallory", Room: "lecture"})
	if e, ok := forger.closed().(*protocol.Error); !ok || e.Code != protocol.ErrCodeTeacher {
		t.Fatalf("a TCP client's Teach got %+v, want an Error of code %d", e, protocol.ErrCodeTeacher)
	}
	ts.waitLog(t, "teach refused")

	player := dial(t, ts)
	player.send(&protocol.Hello{Version: protocol.Version, Name: "ada", Room: "lecture"})
	player.until("ada's Welcome", func(m protocol.Message) bool { _, ok := m.(*protocol.Welcome); return ok })
	cheat := dial(t, ts)
	cheat.send(&protocol.Hello{Version: protocol.Version, Name: "bob", Room: "lecture"})
	cheat.until("bob's Welcome", func(m protocol.Message) bool { _, ok := m.(*protocol.Welcome); return ok })
	cheat.send(&protocol.Conditions{LatencyMS: 1000, Rate: 20})
	if e, ok := cheat.closed().(*protocol.Error); !ok || e.Code != protocol.ErrCodeTeacher {
		t.Fatalf("a player's Conditions got %+v, want an Error of code %d", e, protocol.ErrCodeTeacher)
	}

	nc, err := ts.DialTeacher(context.Background(), &net.TCPAddr{IP: net.IPv4(192, 0, 2, 9), Port: 50000})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	teacher := &testClient{t: t, nc: nc, dec: protocol.NewDecoder(nc), enc: protocol.NewEncoder(nc)}
	teacher.send(&protocol.Teach{Version: protocol.Version, Name: "hopper", Room: "lecture"})
	teacher.until("the room's Conditions", func(m protocol.Message) bool {
		c, ok := m.(*protocol.Conditions)
		return ok && c.Teachers == 1
	})
	teacher.send(&protocol.Conditions{LatencyMS: 300, Rate: 20})
	player.until("the teacher's 300 ms", func(m protocol.Message) bool {
		c, ok := m.(*protocol.Conditions)
		return ok && c.LatencyMS == 300
	})
	ts.waitLog(t, "300ms round trip")
	sent := time.Now()
	player.send(&protocol.Input{Seq: 1, Dir: grid.Right})
	player.state("ack 1", func(st *protocol.State) bool { return st.Ack == 1 })
	if took := time.Since(sent); took < 300*time.Millisecond {
		t.Errorf("RIGHT acknowledged %v after it was sent, before the 300 ms round trip the teacher set", took)
	}
}
