package world

import (
	"fmt"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/world/worldtest"
)

// busyCore returns a core with n joined players who have each moved once,
// its outbox drained.
func busyCore(tb testing.TB, n int) *Core {
	tb.Helper()
	// The longest round: a round's end would add a scoreboard to a tick.
	c := NewCore(Config{Map: worldtest.OpenMap(tb, 100, 100), Spawn: grid.Pos{X: 50, Y: 50}, Rate: 20, MaxPlayers: n, Round: MaxRound})
	for i := 1; i <= n; i++ {
		c.Receive(0, ConnID(i), &protocol.Hello{Version: protocol.Version, Name: fmt.Sprint("p", i), Bot: i%2 == 0})
		c.Outbox()
	}
	for i := 1; i <= n; i++ {
		c.Receive(time.Second, ConnID(i), &protocol.Input{Seq: 1, Dir: grid.Dir(i%4 + 1)})
	}
	c.Outbox()
	if s := c.Stats(); s.Players != n || s.Moves == 0 {
		tb.Fatalf("setup: %+v", s)
	}
	return c
}

// BenchmarkCoreTick1000 measures one update tick of the Core with 1,000
// players: 1,000 States, each with 1,000 cells.
func BenchmarkCoreTick1000(b *testing.B) {
	const n = 1000
	c := busyCore(b, n)
	now := 2 * time.Second
	c.Tick(now)
	c.Outbox()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		now += 50 * time.Millisecond
		c.Tick(now)
		if out := c.Outbox().Envelopes; len(out) != n {
			b.Fatalf("%d envelopes", len(out))
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/player-tick")
}

func TestTickAllocatesNothing(t *testing.T) {
	c := busyCore(t, 300)
	now := 2 * time.Second
	c.Tick(now)
	c.Outbox()
	allocs := testing.AllocsPerRun(50, func() {
		now += 50 * time.Millisecond
		c.Tick(now)
		c.Outbox()
	})
	if allocs != 0 {
		t.Errorf("a steady-state tick allocates %.1f times, want 0", allocs)
	}
}
