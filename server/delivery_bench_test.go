package server

import (
	"fmt"
	"io"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"gridlag/internal/notify"
	"gridlag/protocol"
	"gridlag/server/hub"
	"gridlag/server/world"
	"gridlag/server/world/worldtest"
)

// BenchmarkServerDelivery is what BenchmarkBareWriteFloor is the floor
// of, side by side in one run: the real Server, at 20 Hz, delivering one
// State per tick to each of n joined clients that read and discard, as the
// floor's readers do; then, for the same n on the same machine, the bare
// loop writing as many frames of the same mean size as the server sent
// (its States and Pings) at the same rate (readers woken as often, for the
// same bytes). One iteration is one tick. It reports the process's CPU per
// State delivered (cpu-ns/state, readers included, as in the floor), the
// floor's (floor-cpu-ns/state), their ratio (x-floor) and the mean frame
// (bytes/frame: the world stands still, so a State is a step).
func BenchmarkServerDelivery(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("clients=%d", n), func(b *testing.B) {
			ticks := &tickCounter{ch: make(chan struct{}, 1)}
			srv := New(Options{
				Hub:             hub.Options{Config: world.Config{Rate: world.DefaultRate, Map: worldtest.OpenMap(b, 100, 100), MaxPlayers: n}, MaxPlayersPerAddr: n, JoinRate: n},
				MaxConnsPerAddr: n,
				IdleTimeout:     time.Hour,
				Metrics:         ticks,
			})
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
			frames0, bytes0 := ticks.frames.Load(), ticks.bytes.Load()
			b.ResetTimer()
			for range b.N {
				<-ticks.ch
			}
			b.StopTimer()
			cpu, states := float64(processCPU()-cpu0), float64(srv.Stats().StatesSent-sent0)
			frames, size := ticks.frames.Load()-frames0, ticks.bytes.Load()-bytes0
			srv.Close()
			floor := writeTicks(b, loopbackPairs(b, n), sizedFrames(n, int(size/frames)), int(frames)/n, time.Second/world.DefaultRate)
			b.ReportMetric(cpu/states, "cpu-ns/state")
			b.ReportMetric(floor/states, "floor-cpu-ns/state")
			b.ReportMetric(cpu/floor, "x-floor")
			b.ReportMetric(float64(size)/float64(frames), "bytes/frame")
		})
	}
}

// joinAndDiscard joins a player on the server at addr, then reads and
// discards whatever the server sends until the connection closes.
// discarders numbers them, for their names.
var discarders atomic.Int64

func joinAndDiscard(tb testing.TB, addr string) {
	tb.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { nc.Close() })
	if err := protocol.NewEncoder(nc).Encode(&protocol.Hello{Version: protocol.Version, Name: fmt.Sprint("p", discarders.Add(1)), Bot: true}); err != nil {
		tb.Fatal(err)
	}
	go io.Copy(io.Discard, nc)
}

// tickCounter is a server's Metrics that signals every tick and counts
// the frames and bytes sent.
type tickCounter struct {
	ch            chan struct{}
	frames, bytes atomic.Int64
}

func (t *tickCounter) Tick(time.Duration) {
	notify.Poke(t.ch)
}
func (t *tickCounter) Sent(frames, size int) { t.frames.Add(int64(frames)); t.bytes.Add(int64(size)) }
func (*tickCounter) Wrote(int, int)          {}
func (*tickCounter) Skipped(int)             {}
func (*tickCounter) Refused(string)          {}
func (*tickCounter) Left(string)             {}

// sizedFrames returns n frames of size bytes each, for the floor to write.
func sizedFrames(n, size int) [][]byte {
	frames := make([][]byte, n)
	for k := range frames {
		frames[k] = make([]byte, size)
	}
	return frames
}
