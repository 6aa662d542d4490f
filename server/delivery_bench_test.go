package server

import (
	"fmt"
	"io"
	"net"
	"testing"
	"time"

	"gridlag/protocol"
)

// BenchmarkServerDelivery is what BenchmarkBareWriteFloor is the floor
// of, side by side in one run: the real Server, at 20 Hz, delivering one
// State per tick to each of n joined clients that read and discard, as the
// floor's readers do; then, for the same n on the same machine, the bare
// loop writing the same number of States of the same size at the same
// rate (readers woken as often, for the same bytes). One iteration
// is one tick. It reports the process's CPU per State delivered
// (cpu-ns/state, readers included, as in the floor), the floor's
// (floor-cpu-ns/state) and their ratio (x-floor).
func BenchmarkServerDelivery(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("clients=%d", n), func(b *testing.B) {
			ticks := tickCounter{ch: make(chan struct{}, 1)}
			srv := New(Options{Config: Config{Rate: DefaultRate, Map: openMap(b, 100, 100), MaxPlayers: n},
				MaxConnsPerAddr: n, MaxPlayersPerAddr: n, IdleTimeout: time.Hour, Metrics: ticks})
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			go srv.Serve(ln)
			defer srv.Close()
			for range n {
				joinAndDiscard(b, ln.Addr().String())
			}
			giveUp := time.After(time.Minute)
			for joined := 0; joined < 3; { // three ticks with everyone in: the Joins are out of the way
				select {
				case <-ticks.ch:
				case <-giveUp:
					b.Fatalf("%d players joined in a minute, want %d", srv.Stats().Players, n)
				}
				if srv.Stats().Players == n {
					joined++
				}
			}
			cpu0, sent0 := processCPU(), srv.Stats().StatesSent
			b.ResetTimer()
			for range b.N {
				<-ticks.ch
			}
			b.StopTimer()
			cpu, states := float64(processCPU()-cpu0), float64(srv.Stats().StatesSent-sent0)
			srv.Close()
			floor := writeTicks(b, loopbackPairs(b, n), tickFrames(b, n), int(states)/n, time.Second/DefaultRate)
			b.ReportMetric(cpu/states, "cpu-ns/state")
			b.ReportMetric(floor/states, "floor-cpu-ns/state")
			b.ReportMetric(cpu/floor, "x-floor")
		})
	}
}

// joinAndDiscard joins a player on the server at addr, then reads and
// discards whatever the server sends until the connection closes.
func joinAndDiscard(tb testing.TB, addr string) {
	tb.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { nc.Close() })
	if err := protocol.NewEncoder(nc).Encode(&protocol.Hello{Version: protocol.Version, Name: "p", Bot: true}); err != nil {
		tb.Fatal(err)
	}
	go io.Copy(io.Discard, nc)
}

// tickCounter is a server's Metrics that signals every tick.
type tickCounter struct{ ch chan struct{} }

func (t tickCounter) Tick(time.Duration) {
	select {
	case t.ch <- struct{}{}:
	default:
	}
}
func (tickCounter) Sent(int, int)  {}
func (tickCounter) Refused(string) {}
func (tickCounter) Left(string)    {}
