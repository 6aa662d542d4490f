package loadgen

import (
	"context"
	"fmt"
	"math/rand"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// maxWriters bounds the writer goroutines: a few suffice for thousands of
// players, as an input is 8 bytes.
const maxWriters = 4

// byeTimeout is how long the players wait for the server to answer their
// Bye before they close the connections themselves.
const byeTimeout = 5 * time.Second

// pollEvery is how often the end of a run checks whether every input was
// acknowledged and every connection closed.
const pollEvery = 10 * time.Millisecond

// checkLive is how often the walk checks whether any player's connection
// is left.
const checkLive = 100 * time.Millisecond

// run is one load run.
type run struct {
	opts  Options
	start time.Time
	rtt   *rttHistogram

	mapMu sync.Mutex
	m     *grid.Map // the map of the first Welcome, shared by all

	refusedMu sync.Mutex
	refused   map[string]int

	reading sync.WaitGroup // the welcomed players' reader goroutines

	undecodable atomic.Int64

	line lineStats // what the players heard of the server's line (line.go)
	plan roomPlan  // how the players are spread over the server's rooms (rooms.go)
}

// newRun starts a run of o (with its defaults).
func newRun(o Options) *run {
	r := &run{opts: o, start: time.Now(), rtt: newRTTHistogram(), refused: map[string]int{}}
	r.line.firstAns = make(chan struct{})
	r.plan.on = o.Rooms == 0
	return r
}

// startWriters starts the goroutines that write the players' inputs,
// until stop is closed; writing is done when they are.
func (r *run) startWriters() (writers []*writer, stop chan struct{}, writing *sync.WaitGroup) {
	writers = make([]*writer, min(runtime.GOMAXPROCS(0), maxWriters))
	stop = make(chan struct{})
	writing = &sync.WaitGroup{}
	for i := range writers {
		writers[i] = &writer{add: make(chan *player, r.opts.N/len(writers)+1), rng: rand.New(rand.NewSource(r.opts.Seed + int64(i)))}
		writing.Add(1)
		go func() {
			defer writing.Done()
			writers[i].run(r, stop)
		}()
	}
	return writers, stop, writing
}

// since is the run's clock: time since it started.
func (r *run) since() time.Duration { return time.Since(r.start) }

// mapOf returns the map a Welcome carries, built once for all the players
// of a run (they play on one server).
func (r *run) mapOf(w *protocol.Welcome) (*grid.Map, error) {
	r.mapMu.Lock()
	defer r.mapMu.Unlock()
	if r.m == nil || r.m.Width() != int(w.MapWidth) || r.m.Height() != int(w.MapHeight) {
		m, err := w.Map()
		if err != nil {
			return nil, err
		}
		r.m = m
	}
	return r.m, nil
}

// knowsMap reports whether the run has the map of w already.
func (r *run) knowsMap(w *protocol.Welcome) bool {
	r.mapMu.Lock()
	defer r.mapMu.Unlock()
	return r.m != nil && r.m.Width() == int(w.MapWidth) && r.m.Height() == int(w.MapHeight)
}

// refuse counts a connection that was not welcomed.
func (r *run) refuse(reason string) {
	r.refusedMu.Lock()
	defer r.refusedMu.Unlock()
	r.refused[reason]++
}

// Run connects o.N players to the server over o.Ramp, walks them for
// o.Duration once all are connected (or until ctx is done), stops them,
// waits up to DrainTimeout for their last inputs to be acknowledged, says
// Bye and returns what was measured. Refused and dropped connections are
// counted in the Summary, not returned as errors: the error is for
// options that cannot run.
func Run(ctx context.Context, o Options) (Summary, error) {
	if err := o.check(); err != nil {
		return Summary{}, err
	}
	o = o.withDefaults()
	if o.ServerMetrics != "" {
		if _, err := readMetrics(ctx, o.ServerMetrics); err != nil {
			return Summary{}, fmt.Errorf("the server's metrics: %w", err)
		}
	}
	r := newRun(o)
	cpu0 := readCPU()
	writers, stop, writing := r.startWriters()

	players := r.connectAll(ctx, writers)
	walkStart := r.since()
	before, beforeErr := r.readServer()
	counts := r.rtt.snapshot()
	r.walk(ctx, players)
	close(stop)
	writing.Wait()
	r.drain(players)
	walkP99, walkN := r.rtt.percentileSince(counts, 99)
	walked := r.since() - walkStart
	after, afterErr := r.readServer()
	r.leave(players)
	s := r.summarize(players, walked, readCPU().since(cpu0))
	if walkN > 0 {
		s.WalkRTTp99 = walkP99
	}
	if o.ServerMetrics != "" {
		s.Server = serverSide(before, beforeErr, after, afterErr)
		var failed []string
		if beforeErr != nil {
			failed = append(failed, "at the walk's start: "+beforeErr.Error())
		}
		if afterErr != nil {
			failed = append(failed, "at the walk's end: "+afterErr.Error())
		}
		s.ServerErr = strings.Join(failed, "; ")
	}
	return s, nil
}

// readServer reads the server's metrics, if the run was given their URL;
// without a deadline of the run's, so that an interrupted walk still
// gets its figures.
func (r *run) readServer() (scrape, error) {
	if r.opts.ServerMetrics == "" {
		return scrape{}, nil
	}
	return readMetrics(context.Background(), r.opts.ServerMetrics)
}

// connectAll connects the players, evenly spaced over the ramp, each
// welcomed one handed to a writer and read by its own goroutine; it
// returns the welcomed players once every connection was welcomed or
// refused.
func (r *run) connectAll(ctx context.Context, writers []*writer) []*player {
	return r.connectRange(ctx, writers, 1, r.opts.N, r.start, r.opts.Ramp)
}

// connectRange connects players first to last (from 1), evenly spaced
// over ramp from start, as connectAll does.
func (r *run) connectRange(ctx context.Context, writers []*writer, first, last int, start time.Time, ramp time.Duration) []*player {
	all := make([]*player, last-first+1)
	var connecting sync.WaitGroup
	for n := first; n <= last; n++ {
		due := ramp * time.Duration(n-first) / time.Duration(last-first+1)
		if !sleepUntil(ctx, start.Add(due)) {
			break
		}
		if !r.planRooms(ctx, n) || n == 2 && r.autoSpread() && !r.learnSpread(ctx) {
			break
		}
		connecting.Add(1)
		go func() {
			p, err := r.connect(ctx, n)
			if err != nil {
				r.refuse(reasonOf(err))
				connecting.Done()
				return
			}
			all[n-first] = p
			writers[n%len(writers)].add <- p
			r.reading.Add(1)
			defer r.reading.Done()
			connecting.Done()
			p.read(r)
		}()
	}
	connecting.Wait()
	var players []*player
	for _, p := range all {
		if p != nil {
			players = append(players, p)
		}
	}
	return players
}

// learnSpread waits for the server's first answer to the first player
// and, if it caps the players of one address below the run's N, gives
// every player a 127/8 address of its own (line.go), saying so; false if
// ctx was done first.
func (r *run) learnSpread(ctx context.Context) bool {
	select {
	case <-r.line.firstAns:
	case <-ctx.Done():
		return false
	}
	if r.line.spread = spreadFor(r.opts.N, r.line.perAddr); r.line.spread > 0 {
		r.say("spreading %d players over %d loopback addresses, one each, %s-%s: the server takes %d players from one address, "+
			"and keeps the last places of its line and rooms for addresses with none\n",
			r.opts.N, r.line.spread, spreadAddr(1), spreadAddr(r.line.spread), r.line.perAddr)
	}
	return true
}

// walk waits while the players walk: for the run's duration, until ctx
// is done, or until no player's connection is left (the server went
// away: there is nothing more to measure).
func (r *run) walk(ctx context.Context, players []*player) {
	var end <-chan time.Time
	if r.opts.Duration > 0 {
		t := time.NewTimer(r.opts.Duration)
		defer t.Stop()
		end = t.C
	}
	check := time.NewTicker(checkLive)
	defer check.Stop()
	for slices.ContainsFunc(players, func(p *player) bool { return !p.dead.Load() }) {
		select {
		case <-ctx.Done():
			return
		case <-end:
			return
		case <-check.C:
		}
	}
}

// drain waits, up to DrainTimeout, until every live player's inputs are
// all acknowledged.
func (r *run) drain(players []*player) {
	deadline := time.Now().Add(DrainTimeout)
	for time.Now().Before(deadline) {
		waiting := false
		for _, p := range players {
			if !p.dead.Load() && p.unacked() > 0 {
				waiting = true
				break
			}
		}
		if !waiting {
			return
		}
		time.Sleep(pollEvery)
	}
}

// leave says Bye for every player and waits, up to byeTimeout, for the
// server to answer and close the connections, then closes what is left.
func (r *run) leave(players []*player) {
	bye, _ := protocol.Marshal(&protocol.Bye{Reason: "load run over"})
	for _, p := range players {
		p.leaving.Store(true)
		p.write(bye)
	}
	done := make(chan struct{})
	go func() {
		r.reading.Wait()
		close(done)
	}()
	t := time.NewTimer(byeTimeout)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		for _, p := range players {
			p.end("")
		}
		<-done
	}
}

// sleepUntil waits until t; false if ctx was done first.
func sleepUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err() == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}
