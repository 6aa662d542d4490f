package server

import (
	"net"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/admit/admittest"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// TestCrowdGoneReleasesMemory: when the connections fall to a quarter of
// a peak of releaseMin or more, and stay there releaseSettle, the loop
// lets the crowd's buffers go and tells the runtime to return the memory
// (once, logged, saying the peak); the player who stayed plays on as
// before.
func TestCrowdGoneReleasesMemory(t *testing.T) {
	logs := &admittest.Log{}
	opts := Options{Hub: hub.Options{Config: world.Config{Rate: 20}}, MaxConnsPerAddr: 200,
		Logger: log.NewWithOptions(logs, log.Options{Level: log.DebugLevel})}
	ts := &testServer{Server: New(opts), logs: logs}
	freed := make(chan struct{}, 4)
	ts.fall.free = func() { freed <- struct{}{} }
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("server log:\n%s", logs.String())
		}
	})
	admittest.Serve(t, ts.Server, ErrServerClosed)

	stay := dial(t, ts)
	w := stay.join("stay")
	var crowd []net.Conn
	for range releaseMin + 16 {
		nc, err := net.Dial("tcp", ts.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		crowd = append(crowd, nc)
	}
	connected := regexp.MustCompile(`(?m)^DEBU connect `)
	eventually(t, func() bool { return len(connected.FindAllString(ts.logs.String(), -1)) >= releaseMin+17 },
		func() string { return "the loop never saw the crowd come in" })
	for _, nc := range crowd {
		nc.Close()
	}
	ts.waitLog(t, "memory released after a crowd went conns=1 peak_conns=81")
	select {
	case <-freed:
	case <-time.After(wait):
		t.Fatal("the runtime was never told to return the memory")
	}
	if n := strings.Count(ts.logs.String(), "memory released"); n != 1 {
		t.Errorf("released %d times, want once", n)
	}
	// The player who stayed plays on, its buffers trimmed away.
	stay.send(&protocol.Input{Seq: 1, Dir: grid.Right})
	st := stay.state("the ack of #1", func(st *protocol.State) bool { return st.Ack == 1 })
	if p, _ := stateCell(st, w.Player); p != grid.DefaultSpawn.Add(grid.Right) {
		t.Errorf("after the release, the player is at %v", p)
	}
}
