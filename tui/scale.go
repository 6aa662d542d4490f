package tui

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"
)

// ScaleReading is what a server said of itself over an interval, as the
// scale lab's panel shows it: every figure from the server's own counters
// (those its /metrics serves). A figure not measured is NaN.
type ScaleReading struct {
	Bots    int  // bots the lab asked for
	Players int  // players in the room at the interval's end
	Areas   bool // the areas of interest were on
	// TickMean and TickP99 are the ticks' mean time and the upper bound
	// of the histogram's bucket that holds their 99th percentile.
	TickMean, TickP99 time.Duration
	Ticks             uint64  // ticks in the interval
	Writes            float64 // writes to the clients' sockets per second
	BytesPerPlayer    float64 // bytes sent per player per second
	MessagesPerState  float64 // frames queued per State produced
	CPU               float64 // the process's CPU, in cores (1 = one core busy)
	RSS               uint64  // resident memory, bytes
	Budget            time.Duration
}

// ScaleLab is what the scale lab's screen drives: a server with bots
// added in steps (ops/scale). Its methods are safe for concurrent use.
type ScaleLab interface {
	// Read returns the figures since the last Read.
	Read(now time.Time) (ScaleReading, error)
	// Up adds the next step's bots, Down takes the last step's away;
	// each reports false when there is no step to go to.
	Up() bool
	Down() bool
	// Areas reports whether the areas of interest are on; SetAreas
	// turns them on or off.
	Areas() bool
	SetAreas(on bool)
	// Steps are the numbers of bots of the steps; Step is the step
	// reached, 0 for none.
	Steps() []int
	Step() int
	// Where says where the server is: its game port and its /metrics.
	Where() string
}

// ScaleReadEvery is how often the scale lab's panel reads the server.
const ScaleReadEvery = time.Second

// scaleKeyTable is every key of the scale lab's screen.
var scaleKeyTable = []binding[*ScaleScreen]{
	{label: "+ ]", help: "the next step: more bots (10, 100, 1,000, ...)", brief: "+", group: "bots", keys: runeKeys("+=]", func(s *ScaleScreen) { s.lab.Up() })},
	{label: "- [", help: "the step before: the last step's bots leave", brief: "-", group: "bots", keys: runeKeys("-_[", func(s *ScaleScreen) { s.lab.Down() })},
	{label: "a", help: "areas of interest on/off: off, each State tells of every player", brief: "a", group: "areas", keys: runeKeys("a", func(s *ScaleScreen) { s.lab.SetAreas(!s.lab.Areas()) })},
	{label: "l", help: "the lesson, its numbers from this run, in place of the table of steps (both on a tall terminal)", brief: "l", group: "lesson", keys: runeKeys("l", func(s *ScaleScreen) { s.lesson = !s.lesson })},
	helpBinding[*ScaleScreen](),
	quitBinding[*ScaleScreen](),
}

// ScaleKeyHelp returns one line per row of the scale lab's key table, for
// -help.
func ScaleKeyHelp() []string { return tableHelp(scaleKeyTable) }

// scaleSteady is one row of the table of steps: the last reading taken
// with the same bots and areas as the one before, every bot in.
type scaleSteady struct {
	bots  int
	areas bool
	r     ScaleReading
}

// ScaleScreen is the scale lab's screen: the live figures of the server
// as its bots go up in steps, and a table of the last steady reading of
// each step, areas of interest on and off. It belongs to one goroutine.
type ScaleScreen struct {
	screenBase
	lab    ScaleLab
	last   ScaleReading
	err    error
	read   bool      // a reading was taken
	next   time.Time // the next reading
	prev   *ScaleReading
	steady []scaleSteady
	lesson bool // the lesson in place of the table (l)
}

// NewScaleScreen returns the scale lab's screen of lab drawn on screen,
// which must already be initialised.
func NewScaleScreen(screen tcell.Screen, lab ScaleLab, opts Options) *ScaleScreen {
	s := &ScaleScreen{lab: lab}
	s.screenBase = newBase(s, screen, opts, scaleKeyTable, "gridlag scale lab: keys", false)
	s.next = s.opts.Clock.Now().Add(ScaleReadEvery)
	return s
}

// RunScale runs the scale lab's screen on screen, which must not be
// initialised yet, until the user quits or Options.Stop is closed.
func RunScale(screen tcell.Screen, lab ScaleLab, opts Options) error {
	_, err := runApp(screen, opts, func() app { return NewScaleScreen(screen, lab, opts) })
	return err
}

// Frame reads the server when a reading is due, and draws.
func (s *ScaleScreen) Frame() bool {
	if now := s.opts.Clock.Now(); !now.Before(s.next) {
		s.next = now.Add(ScaleReadEvery)
		s.take(s.lab.Read(now))
	}
	return s.show(s.render)
}

// take keeps a reading, and notes it as its step's steady one when the
// reading before had the same bots and areas and every bot was in.
func (s *ScaleScreen) take(r ScaleReading, err error) {
	s.err = err
	if err != nil {
		return
	}
	s.last, s.read = r, true
	prev := s.prev
	s.prev = &r
	if prev == nil || prev.Bots != r.Bots || prev.Areas != r.Areas || r.Bots == 0 || r.Players != r.Bots || r.Ticks == 0 {
		return
	}
	for i := range s.steady {
		if s.steady[i].bots == r.Bots && s.steady[i].areas == r.Areas {
			s.steady[i].r = r
			return
		}
	}
	s.steady = append(s.steady, scaleSteady{r.Bots, r.Areas, r})
}

// nextChange is when the next reading is due.
func (s *ScaleScreen) nextChange() time.Duration {
	return max(s.next.Sub(s.opts.Clock.Now()), time.Millisecond)
}

// signals: the screen changes with its readings alone.
func (s *ScaleScreen) signals() (changed, done <-chan struct{}) { return nil, nil }

// The scale lab's screen needs this much terminal.
const (
	scaleMinW = 64
	scaleMinH = 20
)

func (s *ScaleScreen) render(screen tcell.Screen) {
	w, h := screen.Size()
	screen.Clear()
	if !s.fits(screen, w >= scaleMinW && h >= scaleMinH, scaleMinW, scaleMinH) {
		return
	}
	put := func(y int, text string, st tcell.Style) { putText(screen, 1, y, w-2, text, st) }
	put(0, fitText(" gridlag scale lab: what a crowd costs the server", w-2), styleTitle)
	steps := s.lab.Steps()
	var names []string
	for i, n := range steps {
		name := count(n)
		if i+1 == s.lab.Step() {
			name = "[" + name + "]"
		}
		names = append(names, name)
	}
	areas := "ON: a State tells of the players near its player"
	if !s.lab.Areas() {
		areas = "OFF: every State tells of every player"
	}
	put(2, fmt.Sprintf("bots   %s of steps %s", count(botsOf(steps, s.lab.Step())), strings.Join(names, " ")), styleText)
	put(3, "areas of interest "+areas, styleText)
	y := 5
	tall := h >= 15+len(s.steady)+4+scaleLessonRows
	switch {
	case s.lesson && !tall:
		s.drawLesson(screen, y, h, w)
		put(h-2, s.lab.Where(), styleDim)
		put(h-1, "+ more bots   - fewer   a areas on/off   l the figures   ? help   q quit", styleKey)
		return
	case s.err != nil:
		put(y, "reading the server failed: "+s.err.Error(), styleWarn)
	case !s.read:
		put(y, "reading the server every second...", styleDim)
	default:
		r := s.last
		put(y, fmt.Sprintf("the server's own counters (/metrics), over the last %d ticks:", r.Ticks), styleHeading)
		in := count(r.Players) + " in the room"
		if r.Players != r.Bots {
			in += fmt.Sprintf(", %d asked for", r.Bots)
		}
		rows := scaleFigures(r, in, "the whole process: server and bots")
		for i, row := range rows {
			putText(screen, 3, y+1+i, 12, row.label, styleKey)
			putText(screen, 15, y+1+i, w-16, row.value+" "+row.gloss, styleText)
		}
		if behind(r) {
			put(y+1+len(rows), "the ticks take longer than the time between them: the server is behind", styleWarn)
		}
	}
	y = s.drawSteps(screen, 15, h-18, w)
	if tall {
		s.drawLesson(screen, y, h, w)
	}
	put(h-2, s.lab.Where(), styleDim)
	put(h-1, "+ more bots   - fewer   a areas on/off   l the lesson   ? help   q quit", styleKey)
}

// drawLesson draws the lesson from row y, down to the two rows above
// the bottom's at most.
func (s *ScaleScreen) drawLesson(screen tcell.Screen, y, h, w int) {
	putText(screen, 1, y, w-2, "The lesson, its numbers from this run:", styleHeading)
	for i, line := range wrap(s.lessonText(), w-4) {
		if y+1+i >= h-3 {
			break
		}
		putText(screen, 3, y+1+i, w-4, line, styleText)
	}
}

// drawSteps draws the table of the steps' steady figures from row y, in
// rows rows at most (the last steps when there are more); it returns the
// row after it.
func (s *ScaleScreen) drawSteps(screen tcell.Screen, y, rows, w int) int {
	putText(screen, 1, y, w-2, "   bots areas  tick ms  writes/s   B/player/s  msgs/State  CPU %  RSS MB", styleHeading)
	y++
	if len(s.steady) == 0 {
		putText(screen, 1, y, w-2, "each step's steady figures come here (a second after its bots are in)", styleDim)
		return y + 2
	}
	for _, st := range s.steady[max(0, len(s.steady)-rows+1):] {
		r, on := st.r, "on"
		if !st.areas {
			on = "off"
		}
		putText(screen, 1, y, w-2, fmt.Sprintf("%7s %-5s %8s %9s %12s %11s %6s %7s", count(st.bots), on, figure(float64(r.TickMean)/1e6, 2),
			figure(r.Writes, 0), figure(r.BytesPerPlayer, 0), figure(r.MessagesPerState, 2), figure(r.CPU*100, 0), figure(float64(r.RSS)/1e6, 0)), styleText)
		y++
	}
	return y + 1
}

// scaleFigure is one row of a scale panel's live figures: what it is,
// its value, and a gloss that a wide panel adds.
type scaleFigure struct{ label, value, gloss string }

// scaleFigures are the rows of a scale panel's live figures of r, the
// lab's and the teacher's: players says who is in, cpu what the CPU
// time is of.
func scaleFigures(r ScaleReading, players, cpu string) []scaleFigure {
	budget := "-"
	if r.Budget > 0 {
		budget = r.Budget.String()
	}
	return []scaleFigure{
		{"players", players, ""},
		{"tick time", fmt.Sprintf("%s mean, p99 < %s", ms(r.TickMean), ms(r.TickP99)), fmt.Sprintf("(a tick every %s)", budget)},
		{"writes", figure(r.Writes, 0) + " a second", "to the sockets"},
		{"bytes", perPlayerText(r.BytesPerPlayer) + " per player", ""},
		{"per State", figure(r.MessagesPerState, 2) + " messages", "(the State, and Joins, Pings... beside it)"},
		{"CPU", figure(r.CPU*100, 0) + "% of one core", "(" + cpu + ")"},
		{"memory", figure(float64(r.RSS)/1e6, 0) + " MB resident", ""},
	}
}

// behind reports whether r's ticks took longer than the time between
// them, or none came in the interval with players in: the server falls
// behind.
func behind(r ScaleReading) bool {
	return r.Budget > 0 && (r.Ticks == 0 && r.Players > 0 || r.TickMean > 0 && r.TickP99 >= r.Budget)
}

// botsOf is how many bots step k asks for.
func botsOf(steps []int, k int) int {
	if k == 0 {
		return 0
	}
	return steps[k-1]
}

// count writes n with thousands separated: 1,000.
func count(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// figure writes v with prec decimals, "-" when not measured.
func figure(v float64, prec int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', prec, 64)
}

// ms writes a duration in milliseconds, three figures at most past a
// whole one: 0.61 ms, 15.0 ms, 250 ms.
func ms(d time.Duration) string {
	if d < 0 {
		return "-"
	}
	v, prec := float64(d)/1e6, 2
	switch {
	case v >= 99.5:
		prec = 0
	case v >= 9.995:
		prec = 1
	}
	return figure(v, prec) + " ms"
}

// perPlayerText writes a rate of bytes, "-" when not measured.
func perPlayerText(b float64) string {
	if math.IsNaN(b) {
		return "-"
	}
	return bytesText(int(b))
}
