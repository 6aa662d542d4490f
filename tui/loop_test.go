package tui

import (
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/lab/sim"
	"gridlag/server/world"
)

// epoch is the real time of the virtual clock's zero.
var epoch = time.Unix(0, 0)

// virtualClock is a simulated world's clock as a Clock: Now is the world's
// time, and the channels of After receive when loopRig.advance moves the
// world past their time.
type virtualClock struct {
	world  *sim.World
	timers []virtualTimer
}

type virtualTimer struct {
	at time.Duration
	ch chan time.Time
}

func (c *virtualClock) Now() time.Time { return epoch.Add(c.world.Now()) }

func (c *virtualClock) After(d time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	c.timers = append(c.timers, virtualTimer{c.world.Now() + d, ch})
	return ch
}

// fire sends on the channels whose time has come.
func (c *virtualClock) fire() {
	now := c.world.Now()
	kept := c.timers[:0]
	for _, t := range c.timers {
		if t.at <= now {
			t.ch <- epoch.Add(t.at)
		} else {
			kept = append(kept, t)
		}
	}
	c.timers = kept
}

// showCounter is a simulation screen that records the virtual time of
// every frame shown.
type showCounter struct {
	tcell.SimulationScreen
	world *sim.World
	shows []time.Duration
}

func (s *showCounter) Show() {
	s.shows = append(s.shows, s.world.Now())
	s.SimulationScreen.Show()
}

// viewCounter counts the views the interface takes.
type viewCounter struct {
	*sim.Client
	mu    sync.Mutex
	views int
}

func (c *viewCounter) View() client.View {
	c.mu.Lock()
	c.views++
	c.mu.Unlock()
	return c.Client.View()
}

// loopRig is the loop of Run on a virtual clock, for alice in a 20 Hz
// world, driven by the test the way Run's select would drive it.
type loopRig struct {
	t      *testing.T
	world  *sim.World
	me     *viewCounter
	clock  *virtualClock
	screen *showCounter
	loop   *loop
}

// newLoopRig settles the world for 2 s (so the board is there), then
// starts the loop, which draws its first frame.
func newLoopRig(t *testing.T, opts client.Options, others ...string) *loopRig {
	return newLoopRigIn(t, world.Config{Rate: 20}, opts, others...)
}

// newLoopRigIn is newLoopRig in a world of cfg.
func newLoopRigIn(t *testing.T, cfg world.Config, opts client.Options, others ...string) *loopRig {
	w := sim.New(cfg)
	me := &viewCounter{Client: w.Join("alice", opts)}
	for _, name := range others {
		w.Join(name, client.Options{})
	}
	w.Advance(2 * time.Second)
	scr := &showCounter{SimulationScreen: tcell.NewSimulationScreen("UTF-8"), world: w}
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(scr.Fini)
	scr.SetSize(120, 40)
	clock := &virtualClock{world: w}
	r := &loopRig{t: t, world: w, me: me, clock: clock, screen: scr, loop: newLoop(New(scr, me, Options{}), Options{Clock: clock})}
	r.loop.changed() // as run does first
	return r
}

// advance moves the world and the clock by d, a millisecond at a time,
// handing the loop the clock's ticks and the session's signals as they
// come.
func (r *loopRig) advance(d time.Duration) {
	for end := r.world.Now() + d; r.world.Now() < end; {
		r.world.Advance(time.Millisecond)
		r.clock.fire()
		r.pump()
	}
}

// pump hands the loop whatever its select could receive now.
func (r *loopRig) pump() {
	for {
		select {
		case <-r.me.Changed():
			r.loop.changed()
		case <-r.loop.tick:
			r.loop.ticked()
		default:
			return
		}
	}
}

// key hands the loop a key event.
func (r *loopRig) key(k tcell.Key, ch rune) {
	r.loop.event(tcell.NewEventKey(k, ch, tcell.ModNone))
}

// shows returns how many frames were shown.
func (r *loopRig) shows() int { return len(r.screen.shows) }

// shownBetween returns the times of the frames shown from start, before
// end.
func (r *loopRig) shownBetween(start, end time.Duration) []time.Duration {
	var in []time.Duration
	for _, at := range r.screen.shows {
		if at >= start && at < end {
			in = append(in, at)
		}
	}
	return in
}

// mustBeIdle checks that no frame is shown and no tick is due while d
// passes.
func (r *loopRig) mustBeIdle(d time.Duration, what string) {
	r.t.Helper()
	before := r.shows()
	r.advance(d)
	if n := r.shows() - before; n != 0 {
		r.t.Fatalf("%s: %d frames shown in %v", what, n, d)
	}
	if r.loop.tick != nil {
		r.t.Fatalf("%s: a tick is due", what)
	}
}

// mustBeSteady checks that the frames shown since the first-th are one a
// FrameInterval (the clock's millisecond steps may add one), never faster.
func (r *loopRig) mustBeSteady(first int) {
	r.t.Helper()
	shows := r.screen.shows[first:]
	for i := 1; i < len(shows); i++ {
		if gap := shows[i] - shows[i-1]; gap < FrameInterval || gap > FrameInterval+time.Millisecond {
			r.t.Fatalf("frames %d and %d are %v apart, want %v", first+i-1, first+i, gap, FrameInterval)
		}
	}
}

// The frame clock: a change on an idle screen is drawn at once; while the
// ledger's ages change, one frame is shown every FrameInterval and never
// more, keys included; an idle screen shows nothing and has no tick due,
// even while the server's states keep coming.
func TestFrameClock(t *testing.T) {
	r := newLoopRig(t, client.Options{Latency: MaxLatency, NoInterpolate: true})
	if r.shows() != 1 {
		t.Fatalf("%d frames at the start, want the first at once", r.shows())
	}
	r.mustBeIdle(time.Second, "idle, the server's states changing nothing on screen")
	r.loop.changed() // a session signal with an unchanged view
	if r.shows() != 1 {
		t.Fatal("a session signal with an unchanged view showed a frame")
	}

	burst := r.world.Now()
	for range 5 { // a burst of keys within one frame interval
		r.key(tcell.KeyRune, '-')
		r.advance(time.Millisecond)
	}
	r.advance(time.Second) // the round trip shown settles to the new latency
	if got := r.shownBetween(burst, burst+2*FrameInterval); len(got) != 2 || got[0] != burst {
		t.Fatalf("frames at %v for a burst of keys at %v, want one at once and one a frame later", got, burst)
	}

	shown := r.shows()
	r.key(tcell.KeyRight, 0)
	if r.shows() != shown+1 || r.screen.shows[shown] != r.world.Now() {
		t.Fatalf("a key on an idle screen was not drawn at once: frames at %v, now %v", r.screen.shows, r.world.Now())
	}
	if r.loop.app.Frame() {
		t.Fatal("a frame with no time passed showed something")
	}
	r.advance(200 * time.Millisecond)
	for range 5 { // a burst of keys within one frame interval
		r.key(tcell.KeyRune, '-')
		r.advance(time.Millisecond)
	}
	r.advance(300 * time.Millisecond)
	if got := r.me.View().Latency; got != MaxLatency-10*FineStep {
		t.Fatalf("latency %v after ten -", got)
	}
	want := int(505*time.Millisecond/(FrameInterval+time.Millisecond)) - 1
	if n := r.shows() - shown - 1; n < want {
		t.Fatalf("%d frames in 505 ms while the ledger's ages change, want a steady %d or so", n, want)
	}
	r.mustBeSteady(shown)

	r.advance(2 * time.Second) // the acknowledgement arrives, the round trip settles
	if v := r.me.View(); len(v.Pending) != 0 {
		t.Fatalf("still pending: %v", v.Pending)
	}
	r.mustBeIdle(time.Second, "everything acknowledged")
	for i := 1; i < r.shows(); i++ {
		if gap := r.screen.shows[i] - r.screen.shows[i-1]; gap < FrameInterval {
			t.Fatalf("frames %d and %d are %v apart, less than %v", i-1, i, gap, FrameInterval)
		}
	}
}

// A key is drawn at once even while the loop waits for the round's clock
// to show its next second: the tick due later is brought forward, and
// the clock's own tick still comes.
func TestKeyIsNotHeldForTheRoundClock(t *testing.T) {
	r := newLoopRigIn(t, world.Config{Rate: 20, Round: 3 * time.Minute}, client.Options{NoInterpolate: true})
	r.world.PingEvery(time.Second)     // the scoreboard, with the round's clock, comes with the server's pings
	r.advance(1500 * time.Millisecond) // idle: only the round's clock ticks
	if r.loop.tick == nil {
		t.Fatalf("no tick due for the round's clock: round %d, left %v", r.me.View().Round, r.me.View().RoundLeft)
	}
	shown := r.shows()
	r.key(tcell.KeyRight, 0)
	if r.shows() != shown+1 || r.screen.shows[shown] != r.world.Now() {
		t.Fatalf("a key while the round's clock waits was not drawn at once: frames at %v, now %v", r.screen.shows[shown:], r.world.Now())
	}
	r.advance(2 * time.Second) // the move acknowledged, the clock shows two more seconds
	if n := r.shows() - shown - 1; n < 2 {
		t.Fatalf("%d frames in the 2 s after the key, want the round's clock to tick on", n)
	}
}

// With interpolation on and another player on the board, the clock keeps
// ticking (interpolated players move with time) and takes about one view
// a frame, never spinning.
func TestFrameClockInterpolating(t *testing.T) {
	r := newLoopRig(t, client.Options{}, "bob")
	r.me.mu.Lock()
	r.me.views = 0
	r.me.mu.Unlock()
	r.advance(500 * time.Millisecond)
	if r.loop.tick == nil {
		t.Fatal("no tick due while interpolated players are on the board")
	}
	r.me.mu.Lock()
	views := r.me.views
	r.me.mu.Unlock()
	if most := int(500*time.Millisecond/FrameInterval) * 3; views > most {
		t.Fatalf("%d views in 500 ms: the frame clock spins (want at most %d)", views, most)
	}
}

// A resize repaints every cell, even when the frame looks the same, and
// a click on a toggle is drawn like a key.
func TestFrameClockResizeAndMouse(t *testing.T) {
	r := newLoopRig(t, client.Options{NoInterpolate: true})
	r.advance(time.Second)
	n := r.shows()
	r.loop.event(tcell.NewEventResize(120, 40))
	if r.shows() != n+1 {
		t.Fatal("a resize did not repaint the screen")
	}
	_, y, _ := r.loop.app.(*UI).Slider().Track()
	row := y - panelSliderRow + panelInterpRow
	x := 120 - panelWidth + 1
	r.advance(time.Second)
	r.loop.event(tcell.NewEventMouse(x, row, tcell.Button1, tcell.ModNone))
	r.loop.event(tcell.NewEventMouse(x, row, tcell.ButtonNone, tcell.ModNone))
	if !r.me.View().Interpolate {
		t.Fatal("a click on the interpolation toggle did not turn it on")
	}
	if r.shows() != n+2 {
		t.Fatal("the click was not drawn at once")
	}
}

// TestQuitEndsTheLoopAtOnce: q ends the loop of a running game on the
// event that carries it, with the clock standing still: quitting waits on
// no timer (no frame tick, no grace), which is what "q ends the SSH
// session at once" rests on.
func TestQuitEndsTheLoopAtOnce(t *testing.T) {
	r := newLoopRig(t, client.Options{Latency: MaxLatency})
	r.key(tcell.KeyRight, 0) // something in flight: the ledger ages, a tick is due
	events := make(chan tcell.Event, 1)
	events <- tcell.NewEventKey(tcell.KeyRune, 'q', tcell.ModNone)
	at := r.world.Now()
	done := make(chan error, 1)
	go func() {
		_, err := r.loop.run(events, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the loop ended with %v after q", err)
		}
	case <-time.After(time.Minute): // a guard against a hang, not a bound
		t.Fatal("the loop did not end on q while the clock stood still")
	}
	if now := r.world.Now(); now != at {
		t.Fatalf("the clock moved from %v to %v", at, now)
	}
}
