package world

import (
	"fmt"
	"math/rand"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/world/worldtest"
)

// bigWorld returns a core with n players spread at random over an open
// 1024x1024 map, each having met those around it.
func bigWorld(tb testing.TB, n int) *Core { return world(tb, n, 1024, 1024) }

// world returns a core with n players spread at random over an open w x h
// map, each having met those around it.
func world(tb testing.TB, n, w, h int) *Core {
	tb.Helper()
	rng := rand.New(rand.NewSource(1))
	spawns := make([]grid.Pos, n)
	for i := range spawns {
		spawns[i] = grid.Pos{X: 1 + rng.Intn(w-2), Y: 1 + rng.Intn(h-2)}
	}
	c := NewCore(Config{Map: worldtest.OpenMap(tb, w, h), Spawn: spawns[0], Spawns: spawns[1:], Rate: 20,
		MaxPlayers: n, MoveTime: time.Millisecond, Burst: 1, Round: MaxRound})
	for i := 1; i <= n; i++ {
		c.Receive(0, ConnID(i), &protocol.Hello{Version: protocol.Version, Name: fmt.Sprint("p", i)})
		c.Outbox()
	}
	c.Tick(time.Millisecond)
	c.Outbox()
	return c
}

// benchAreaTick measures the broadcast of a tick in which every one of n
// players took a step: each client's State of what changed in its area.
func benchAreaTick(b *testing.B, c *Core, n int) {
	seq := uint32(0)
	now := time.Second
	b.ReportAllocs()
	b.ResetTimer()
	states := 0
	for b.Loop() {
		b.StopTimer()
		seq++
		now += 50 * time.Millisecond
		for i := 1; i <= n; i++ {
			c.Receive(now, ConnID(i), &protocol.Input{Seq: seq, Dir: grid.Dir((int(seq)/8+i)%4 + 1)})
		}
		c.Outbox()
		b.StartTimer()
		c.Tick(now)
		states = 0
		for _, e := range c.Outbox().Envelopes {
			if st, ok := e.Msg.(*protocol.State); ok {
				states += st.Count()
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/player-tick")
	b.ReportMetric(float64(states)/float64(n), "moves-in-view/player")
}

// BenchmarkAreaTick1000 is a tick of 1,000 walking players on a 1024x1024
// map with areas of interest and deltas.
func BenchmarkAreaTick1000(b *testing.B) { benchAreaTick(b, bigWorld(b, 1000), 1000) }

// BenchmarkAreaTick10000 is the same with 10,000 players.
func BenchmarkAreaTick10000(b *testing.B) { benchAreaTick(b, bigWorld(b, 10000), 10000) }

// BenchmarkAreaTickCrowd is a tick of 1,000 walking players on a 180x120
// map, where each sees most of the others: a classroom's crowd.
func BenchmarkAreaTickCrowd(b *testing.B) { benchAreaTick(b, world(b, 1000, 180, 120), 1000) }
