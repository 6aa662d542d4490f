package host

import (
	"context"
	"fmt"
	"net"
	"sync"
	"time"

	"gridlag/client/bot"
	"gridlag/grid"
	"gridlag/ops/metrics"
	"gridlag/protocol"
	"gridlag/server"
)

// CrowdStep is the time between two moves of a teacher's bot: a step a
// second, as the scale lab's test walks them, so that a thousand bots in
// the server's own process leave the server most of a 2-core machine
// (each bot plans its path at each step).
const CrowdStep = time.Second

// CountersEvery is how often the room's teachers are told the server's
// own counters (the scale panel in the teacher's room).
const CountersEvery = time.Second

// crowds runs the bots the teachers ask for in their rooms
// (server.Options.Crowd): the server's own, dialled through the server
// itself as Own, so that they count against its connections and the
// room's players like anyone, and against no address's cap. A room's
// bots come in batches, one per step up; a step down stops the last
// batches, and starts one of the difference if they were more than
// enough. Orders are taken at once (the server's loop gives them) and
// carried out on a goroutine of their own.
type crowds struct {
	h      *Host
	mu     sync.Mutex
	want   map[string]int // the bots each room is to have, as last ordered
	poke   chan struct{}
	stop   chan struct{}
	done   chan struct{}
	serial int // batches started, which names each batch's bots
}

// crowdBatch is one batch of a room's bots.
type crowdBatch struct {
	n    int
	stop func() bot.Summary
}

// startCrowds makes the host run the teachers' bots, if its hub gives
// teachers any (-teach-bots): it completes opts.
func (h *Host) startCrowds(opts *server.Options) {
	if opts.Hub.TeachBots <= 0 {
		return
	}
	c := &crowds{h: h, want: make(map[string]int), poke: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	h.crowds = c
	opts.Crowd = c.order
	go c.run()
}

// order is server.Options.Crowd: room is to have bots of the server's
// own. It returns at once.
func (c *crowds) order(room string, bots int) {
	c.mu.Lock()
	c.want[room] = bots
	c.mu.Unlock()
	select {
	case c.poke <- struct{}{}:
	default:
	}
}

// run carries the orders out until close: then every bot leaves.
func (c *crowds) run() {
	defer close(c.done)
	running := make(map[string][]crowdBatch)
	defer func() {
		for _, batches := range running {
			for i := len(batches) - 1; i >= 0; i-- {
				batches[i].stop()
			}
		}
	}()
	for {
		select {
		case <-c.stop:
			return
		case <-c.poke:
		}
		c.mu.Lock()
		want := make(map[string]int, len(c.want))
		for room, n := range c.want {
			want[room] = n
		}
		c.mu.Unlock()
		for room, n := range want {
			running[room] = c.resize(room, running[room], n)
			if len(running[room]) == 0 {
				delete(running, room)
			}
		}
	}
}

// resize brings room's batches to n bots in all.
func (c *crowds) resize(room string, batches []crowdBatch, n int) []crowdBatch {
	total := 0
	for _, b := range batches {
		total += b.n
	}
	for total > n && len(batches) > 0 {
		last := batches[len(batches)-1]
		batches = batches[:len(batches)-1]
		last.stop()
		total -= last.n
	}
	if total < n {
		batches = append(batches, c.start(room, n-total))
	}
	return batches
}

// start starts a batch of n bots in room.
func (c *crowds) start(room string, n int) crowdBatch {
	h := c.h
	c.serial++
	own := func(ctx context.Context, _ string) (net.Conn, error) { return h.srv.Dial(ctx, server.Own) }
	name := room
	if name == "" {
		name = "the default room"
	}
	h.log.Info("a teacher's bots join", "room", name, "bots", n, "batch", c.serial)
	stop := bot.Start(context.Background(), bot.Options{
		Addr: h.local, N: n, Dial: own, Room: room, NamePrefix: fmt.Sprintf("crowd%d", c.serial), Step: CrowdStep,
		Avoid: append([]grid.Pos{h.world.Spawn}, h.world.Spawns...), Logger: h.log.WithPrefix("crowd"),
	})
	return crowdBatch{n: n, stop: stop}
}

// close takes every teacher's bot away and waits for them to leave.
func (c *crowds) close() {
	close(c.stop)
	<-c.done
}

// startCounters tells the rooms' teachers, every CountersEvery until the
// host closes, what the server's own counters (the registry its
// /metrics serves) say of the last interval.
func (h *Host) startCounters() error {
	snap, err := h.exp.Snapshot(time.Now())
	if err != nil {
		return err
	}
	sum := h.exp.SummarizerFrom(snap)
	h.counted = snap
	stop := make(chan struct{})
	h.counters = stop
	ticker := time.NewTicker(CountersEvery)
	go func() {
		defer ticker.Stop()
		for {
			select {
			case now := <-ticker.C:
				h.tellCounters(sum, now)
			case <-stop:
				return
			}
		}
	}()
	return nil
}

// tellCounters reads the registry at now and hands the teachers its
// figures since the last reading.
func (h *Host) tellCounters(sum *metrics.Summarizer, now time.Time) {
	snap, err := h.exp.Snapshot(now)
	if err != nil {
		h.log.Warn("the teachers' counters", "err", err)
		return
	}
	h.countMu.Lock()
	start := h.counted
	c := sum.NextAt(snap).Counters(snap.At.Sub(start.At))
	h.counted, h.lastCounters = snap, CountersReading{Counters: c, Start: start, End: snap}
	h.countMu.Unlock()
	h.srv.TellCounters(c)
}

// CountersReading is what the host last told the teachers of the
// server's counters, and the snapshots of the registry it is the
// difference of: what /metrics served at either end of its interval.
type CountersReading struct {
	Counters   protocol.Counters
	Start, End metrics.Snapshot
}

// LastCounters returns what the host last told the teachers; ok is false
// before the first.
func (h *Host) LastCounters() (r CountersReading, ok bool) {
	h.countMu.Lock()
	defer h.countMu.Unlock()
	return h.lastCounters, h.lastCounters.End.At != time.Time{}
}
