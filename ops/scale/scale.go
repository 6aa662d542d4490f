// Package scale is the scale lab: what a crowd costs a server. It runs a
// real game server in the process (ops/host, with its metrics page on
// loopback), adds light bots to its room in steps (ops/loadgen's players,
// real TCP clients over loopback that walk at the speed limit) and reads
// what the server says of itself: its tick time, its writes to the
// sockets, the bytes and messages it sends, its CPU and memory. Every
// figure comes from the server's own counters, the registry its /metrics
// serves, never from an estimate. The areas of interest can be turned off
// and on while the bots walk (server.Server.SetAreas), so that a class
// sees what they save.
package scale

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/netip"
	"sync"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/ops/host"
	"gridlag/ops/loadgen"
	"gridlag/ops/metrics"
	"gridlag/server"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// DefaultSteps are the crowds the lab steps through: ten times more each
// time, up to what the project's 2-core machine serves.
var DefaultSteps = []int{10, 100, 1000}

// DefaultMap is the size of the map the bots spread over: big enough that
// an area of interest (257x81 cells and a margin) holds a small share of
// it.
var DefaultMap = server.MapSize{W: 1024, H: 512}

// Options configure a scale lab.
type Options struct {
	// Steps are the numbers of bots, rising; nil means DefaultSteps.
	Steps []int
	// Map is the map's size; zero means DefaultMap.
	Map server.MapSize
	// Seed seeds the map and the bots' walks.
	Seed int64
	// Rate is the server's update rate; 0 means world.DefaultRate.
	Rate int
	// MoveTime is the time between two moves of a bot; 0 means the
	// server's speed limit.
	MoveTime time.Duration
	// AreasOff starts the server with its areas of interest off.
	AreasOff bool
	// Logger receives the server's and the bots' logs; nil discards them.
	Logger *log.Logger
}

// MaxBots bounds a step: what one process's bots may ask of a server
// beside them.
const MaxBots = 10_000

// CheckSteps refuses steps that do not rise or leave 1 to MaxBots.
func CheckSteps(steps []int) error {
	last := 0
	for _, n := range steps {
		if n <= last || n > MaxBots {
			return fmt.Errorf("steps %v: each must be more than the one before, 1 to %d", steps, MaxBots)
		}
		last = n
	}
	if len(steps) == 0 {
		return errors.New("no step")
	}
	return nil
}

// Lab is a running scale lab. Its methods are safe for concurrent use.
type Lab struct {
	opts  Options
	h     *host.Host
	sum   *metrics.Summarizer
	addrs []netip.Addr // the bots' source addresses, loopback aliases

	mu      sync.Mutex
	batches []*batch // one per step reached, in order
	areas   bool
	at      metrics.Snapshot // the registry at the last Read
	done    chan struct{}    // closed by Close
}

// batch is the bots one step added: one load run.
type batch struct {
	n      int
	cancel context.CancelFunc
	over   chan struct{} // closed when its run has returned
}

// Start starts the server and its metrics; no bot walks yet.
func Start(o Options) (*Lab, error) {
	if o.Steps == nil {
		o.Steps = DefaultSteps
	}
	if err := CheckSteps(o.Steps); err != nil {
		return nil, fmt.Errorf("scale: %w", err)
	}
	if o.Map == (server.MapSize{}) {
		o.Map = DefaultMap
	}
	if o.Logger == nil {
		o.Logger = log.New(io.Discard)
	}
	if o.Rate == 0 {
		o.Rate = world.DefaultRate
	}
	most := o.Steps[len(o.Steps)-1]
	opts := server.Options{
		// The lab's bots come from its own loopback addresses, which the
		// server believes are bots; it counts them against no one's caps,
		// and refuses nobody for load: the panel shows the ticks grow
		// past their budget instead, which is the lesson.
		BotAddrs:        []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")},
		MaxConns:        most + 64,
		MaxConnsPerAddr: most + 64,
		Hub: hub.Options{
			MaxPlayersPerAddr: most + 64,
			JoinRate:          most + 64,
			RoomPlayers:       most + 64,
		},
	}
	opts.Hub.Config.MaxPlayers = most + 16
	opts.Hub.Config.Rate = o.Rate
	opts.Hub.Config.AreasOff = o.AreasOff
	h, err := host.Start(host.Config{
		Server:      opts,
		Map:         server.MapSource{Gen: o.Map, Seed: o.Seed},
		MetricsAddr: "127.0.0.1:0",
		Logger:      o.Logger,
	}) // Hub.TickBudget 0: nobody refused for load
	if err != nil {
		return nil, err
	}
	snap, err := h.Exporter().Snapshot(time.Now())
	if err != nil {
		h.Close()
		return nil, err
	}
	l := &Lab{opts: o, h: h, sum: h.Exporter().SummarizerFrom(snap), areas: !o.AreasOff, at: snap, done: make(chan struct{})}
	for i := range max(most/500, 1) { // a few hundred bots an address, as a class behind NAT
		l.addrs = append(l.addrs, netip.AddrFrom4([4]byte{127, 0, 2, byte(1 + i)}))
	}
	return l, nil
}

// Steps are the lab's steps.
func (l *Lab) Steps() []int { return l.opts.Steps }

// MetricsURL is the server's /metrics, on loopback.
func (l *Lab) MetricsURL() string { return "http://" + l.h.MetricsAddr() + "/metrics" }

// Server is the lab's game server.
func (l *Lab) Server() *server.Server { return l.h.Server() }

// Addr is where a player joins the lab's room (gridlag play HOST:PORT).
func (l *Lab) Addr() string { return l.h.LocalAddr() }

// Step is the step reached: how many steps' bots were added (0: none).
func (l *Lab) Step() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.batches)
}

// Bots is how many bots the steps reached asked for.
func (l *Lab) Bots() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.botsLocked()
}

func (l *Lab) botsLocked() int {
	if len(l.batches) == 0 {
		return 0
	}
	return l.opts.Steps[len(l.batches)-1]
}

// Up adds the next step's bots; it reports false at the last step. The
// bots connect over a second for each thousand, in the background.
func (l *Lab) Up() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := len(l.batches)
	if k == len(l.opts.Steps) || l.closed() {
		return false
	}
	n := l.opts.Steps[k] - l.botsLocked()
	ctx, cancel := context.WithCancel(context.Background())
	b := &batch{n: n, cancel: cancel, over: make(chan struct{})}
	l.batches = append(l.batches, b)
	o := loadgen.Options{
		Addr: l.h.LocalAddr(), N: n, MoveTime: l.opts.MoveTime,
		NamePrefix: fmt.Sprintf("bot%d", k+1), Seed: l.opts.Seed + int64(k),
		LocalAddrs: l.addrs, HandshakeTimeout: time.Minute,
	}
	lg := l.opts.Logger.WithPrefix("bots")
	go func() {
		defer close(b.over)
		s, err := loadgen.Run(ctx, o)
		if err != nil {
			lg.Error("a step's bots could not run", "step", k+1, "err", err)
			return
		}
		lg.Info("a step's bots left", "step", k+1, "bots", n, "welcomed", s.Players, "refused", s.Refused, "dropped", s.Dropped)
	}()
	return true
}

// Down takes the last step's bots away; it reports false with none. It
// does not wait for them to leave (Close does).
func (l *Lab) Down() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.batches) == 0 {
		return false
	}
	b := l.batches[len(l.batches)-1]
	l.batches = l.batches[:len(l.batches)-1]
	b.cancel()
	return true
}

// Areas reports whether the areas of interest are on.
func (l *Lab) Areas() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.areas
}

// SetAreas turns the server's areas of interest on or off.
func (l *Lab) SetAreas(on bool) {
	l.mu.Lock()
	l.areas = on
	l.mu.Unlock()
	l.h.Server().SetAreas(on)
}

// Figures are what the server said of itself over an interval, from the
// registry its /metrics serves (metrics.Summary), with what the lab
// asked for.
type Figures struct {
	metrics.Summary
	// Bots is how many bots the lab asked for; Areas whether the areas
	// of interest were on at the interval's end; Interval the interval's
	// length.
	Bots     int
	Areas    bool
	Interval time.Duration
	// Tick is the time between two ticks at the server's rate.
	Tick time.Duration
	// Start and End are the snapshots of the server's registry the
	// figures are the difference of: what its /metrics served at either
	// end of the interval (metrics.Snapshot.WriteText), each gathered
	// once.
	Start, End metrics.Snapshot
}

// BytesPerPlayer is the bytes queued for the clients per player per
// second (gridlag_bytes_out_total over gridlag_players); NaN without
// players.
func (f Figures) BytesPerPlayer() float64 { return perPlayer(f.BytesOut, f.Players) }

// WritesPerPlayer is the writes to the sockets per player per second;
// NaN without players.
func (f Figures) WritesPerPlayer() float64 { return perPlayer(f.Writes, f.Players) }

// MessagesPerState is the frames queued for every State produced: the
// State itself and the Joins, Pings and the rest sent beside it
// (gridlag_frames_out_total over gridlag_states_sent_total); NaN without
// a State.
func (f Figures) MessagesPerState() float64 {
	if f.StatesOut == 0 {
		return math.NaN()
	}
	return f.FramesOut / f.StatesOut
}

// BytesPerState is the bytes queued for every State produced, the State
// and what went beside it; NaN without a State.
func (f Figures) BytesPerState() float64 {
	if f.StatesOut == 0 {
		return math.NaN()
	}
	return f.BytesOut / f.StatesOut
}

func perPlayer(v float64, players int) float64 {
	if players == 0 {
		return math.NaN()
	}
	return v / float64(players)
}

// Read returns the figures of the interval since the previous Read (or
// Start), as the server's registry says at now.
func (l *Lab) Read(now time.Time) (Figures, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed() {
		return Figures{}, ErrClosed
	}
	snap, err := l.h.Exporter().Snapshot(now)
	if err != nil {
		return Figures{}, err
	}
	f := Figures{
		Summary: l.sum.NextAt(snap), Bots: l.botsLocked(), Areas: l.areas, Interval: now.Sub(l.at.At),
		Tick: time.Second / time.Duration(l.opts.Rate), Start: l.at, End: snap,
	}
	l.at = snap
	return f, nil
}

// closed reports whether Close was called; l.mu is held.
func (l *Lab) closed() bool {
	select {
	case <-l.done:
		return true
	default:
		return false
	}
}

// ErrClosed is what a closed lab's Read returns.
var ErrClosed = errors.New("scale: the lab is closed")

// Close takes every bot away, waits for them to leave, and stops the
// server.
func (l *Lab) Close() error {
	l.mu.Lock()
	if l.closed() {
		l.mu.Unlock()
		return nil
	}
	close(l.done)
	batches := l.batches
	l.batches = nil
	l.mu.Unlock()
	for _, b := range batches {
		b.cancel()
	}
	for _, b := range batches {
		<-b.over
	}
	l.h.Close()
	return nil
}
