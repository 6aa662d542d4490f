package server

import (
	"fmt"
	"math/rand"
	"net"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// BenchmarkLoopTick10000 measures the work of one tick in the server's
// loop, the one goroutine that owns the hub, with 10,000 players walking
// at 10 moves a second on a generated 1024x1024 map (the scale runs'
// setup, 20 Hz): handing the hub the tick's 5,000 inputs, its tick, and
// encoding and queuing what it produced for the writers, with one shard
// (the loop does it all) and with two (each encodes and queues its
// connections' frames at once). Each is reported per tick: the loop's
// serial work, which other cores cannot take. The queue step is also
// reported in the process's CPU time (ms-queue-cpu/tick: getrusage), which
// other processes on a shared core do not inflate as they do the wall
// clock's.
func BenchmarkLoopTick10000(b *testing.B) {
	for _, shards := range []int{1, 2} {
		b.Run(fmt.Sprintf("shards=%d", shards), func(b *testing.B) { benchLoopTick(b, 10000, shards) })
	}
}

// nullConn is a socket that nothing is read from nor written to: the
// benchmark takes the frames from the queues itself.
type nullConn struct{ net.Conn }

func (nullConn) RemoteAddr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1} }

func benchLoopTick(b *testing.B, n, shards int) {
	m, err := grid.Generate(1024, 1024, 1)
	if err != nil {
		b.Fatal(err)
	}
	h := hub.New(0, hub.Options{Config: world.Config{Map: m, Rate: 20, MaxPlayers: n, Round: world.MaxRound}})
	for i := 1; i <= n; i++ {
		h.Connect(0, world.ConnID(i), hub.Origin{Own: true})
		h.Receive(0, world.ConnID(i), &protocol.Hello{Version: protocol.Version, Name: fmt.Sprint("p", i), Bot: true})
		h.Outbox()
	}
	h.PingEvery(0, 0) // ticks alone
	s := &Server{opts: Options{}.withDefaults(), hub: h, conns: make(map[world.ConnID]*conn), parallel: parallelQueue}
	for range shards {
		s.shards = append(s.shards, newShard())
	}
	for i := 1; i <= n; i++ {
		id := world.ConnID(i)
		s.conns[id] = newConn(id, nullConn{}, hub.Origin{Own: true}, s.shards[i%shards], DefaultSendQueue, DefaultSendQueueBytes, 0)
	}
	var iov [][]byte
	rng := rand.New(rand.NewSource(1))
	seq := make([]uint32, n+1)
	dir := make([]grid.Dir, n+1)
	now := time.Second
	var inputs, ticks, encodes time.Duration
	var queueCPU int64
	tick := func(k int) {
		t0 := time.Now()
		for i := 1 + k%2; i <= n; i += 2 { // half the players move each tick: 10 a second at 20 Hz
			if rng.Intn(8) == 0 || dir[i] == 0 {
				dir[i] = grid.Dir(rng.Intn(4) + 1)
			}
			seq[i]++
			h.Receive(now, world.ConnID(i), &protocol.Input{Seq: seq[i], Dir: dir[i]})
		}
		t1 := time.Now()
		var out []world.Envelope
		now, out = tickAt(h, now+50*time.Millisecond)
		t2, cpu := time.Now(), processCPU()
		s.queue(out)
		t3 := time.Now()
		queueCPU += processCPU() - cpu
		for _, c := range s.conns { // the writers' part: every socket takes all
			for {
				iov, _ = c.pieces(iov[:0])
				if len(iov) == 0 {
					break
				}
				n := 0
				for _, b := range iov {
					n += len(b)
				}
				c.wrote(n, false)
			}
		}
		for _, sh := range s.shards {
			sh.ready = sh.ready[:0]
		}
		inputs, ticks, encodes = inputs+t1.Sub(t0), ticks+t2.Sub(t1), encodes+t3.Sub(t2)
	}
	for k := range 40 { // two seconds: the players spread and meet
		tick(k)
	}
	inputs, ticks, encodes, queueCPU = 0, 0, 0, 0
	b.ResetTimer()
	k := 0
	for b.Loop() {
		tick(k)
		k++
	}
	per := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(k) }
	b.ReportMetric(per(inputs), "ms-inputs/tick")
	b.ReportMetric(per(ticks), "ms-tick/tick")
	b.ReportMetric(per(encodes), "ms-queue/tick")
	b.ReportMetric(per(time.Duration(queueCPU)), "ms-queue-cpu/tick")
	b.ReportMetric(per(inputs+ticks+encodes), "ms-loop/tick")
}
