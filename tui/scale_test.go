package tui_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/tui"
)

// fakeScale is a scale lab whose server says what the test tells it:
// bytes per player grow with the players heard of, as a server's would.
type fakeScale struct {
	steps []int
	step  int
	areas bool
	reads int
}

func (f *fakeScale) Read(time.Time) (tui.ScaleReading, error) {
	f.reads++
	bots := 0
	if f.step > 0 {
		bots = f.steps[f.step-1]
	}
	heard := min(bots, 60) // the players near each, areas on
	if !f.areas {
		heard = bots
	}
	return tui.ScaleReading{
		Bots: bots, Players: bots, Areas: f.areas, Ticks: 20,
		TickMean: time.Duration(bots*heard) * 20 * time.Nanosecond, TickP99: 15 * time.Millisecond,
		Writes: float64(20 * bots), BytesPerPlayer: float64(20 * (19 + 6*heard)), MessagesPerState: 1.05,
		CPU: 0.5, RSS: uint64(30e6 + 100*bots*heard), Budget: 50 * time.Millisecond,
	}, nil
}
func (f *fakeScale) Up() bool {
	if f.step == len(f.steps) {
		return false
	}
	f.step++
	return true
}
func (f *fakeScale) Down() bool {
	if f.step == 0 {
		return false
	}
	f.step--
	return true
}
func (f *fakeScale) Areas() bool      { return f.areas }
func (f *fakeScale) SetAreas(on bool) { f.areas = on }
func (f *fakeScale) Steps() []int     { return f.steps }
func (f *fakeScale) Step() int        { return f.step }
func (f *fakeScale) Where() string    { return "play among them: gridlag play 127.0.0.1:7777" }

// stepClock is a clock the test moves by hand.
type stepClock struct{ now time.Time }

func (c *stepClock) Now() time.Time                       { return c.now }
func (c *stepClock) After(time.Duration) <-chan time.Time { return nil }

// TestScaleScreenStepsAndItsLesson: at 80x24, + and - go up and down
// the steps, a reads the areas' switch, each step's steady figures (a
// reading after one with the same crowd) make a row of the table, and
// the lesson (l) says what the areas saved with the run's numbers, no
// placeholder left.
func TestScaleScreenStepsAndItsLesson(t *testing.T) {
	scr := newScreen(t, 80, 24)
	lab := &fakeScale{steps: []int{10, 100, 1000}, areas: true}
	clock := &stepClock{now: time.Unix(1000, 0)}
	s := tui.NewScaleScreen(scr, lab, tui.Options{Clock: clock})
	term := simTerm{t, scr}
	key := func(c rune) { s.HandleKey(tcell.NewEventKey(tcell.KeyRune, c, tcell.ModNone)); s.Frame() }
	second := func() { clock.now = clock.now.Add(tui.ScaleReadEvery); s.Frame() }
	s.Frame()
	if !term.has("bots   0 of steps 10 100 1,000") || !term.has("areas of interest ON") {
		t.Fatalf("at the start:\n%s", term.text())
	}
	key('l')
	if !term.has("Step up to a crowd (+)") {
		t.Errorf("the lesson before the run has its numbers:\n%s", term.text())
	}
	key('l')
	for range 3 {
		key('+')
		second()
		second()
	}
	key('+') // past the last step: nothing
	if !term.has("bots   1,000 of steps 10 100 [1,000]") || !term.has("1,000 in the room") || !term.has("20000 a second to the sockets") {
		t.Fatalf("at 1,000 bots:\n%s", term.text())
	}
	key('a')
	second()
	second()
	if !term.has("areas of interest OFF") || !term.has("1,000 off") {
		t.Fatalf("areas off:\n%s", term.text())
	}
	for _, row := range []string{"     10 on", "    100 on", "  1,000 on", "  1,000 off"} {
		if !term.has(row) {
			t.Errorf("no row %q in the table:\n%s", row, term.text())
		}
	}
	key('l')
	text := strings.Join(strings.Fields(term.text()), " ")
	// On: 60 heard, 20*(19+360) = 7580 B/s; off: 1000 heard, 20*6019 =
	// 120380 B/s: 15.9 times as much.
	for _, want := range []string{"1,000 bots cost 7.6 kB/s each", "where 10 cost", "120 kB/s each, 15.9 times as much", "A tick every 50ms"} {
		if !strings.Contains(text, want) {
			t.Errorf("the lesson does not say %q:\n%s", want, term.text())
		}
	}
	if strings.Contains(text, "{") {
		t.Errorf("a placeholder left in the lesson:\n%s", term.text())
	}
	key('-')
	if lab.step != 2 {
		t.Errorf("after -: step %d, want 2", lab.step)
	}
}
