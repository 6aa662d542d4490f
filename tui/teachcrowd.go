package tui

import (
	"fmt"
	"math"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/protocol"
)

// The scale panel in the teacher's room (protocol version 6): the
// teacher adds the server's own bots to the room in steps (b), takes a
// step away (d), turns the room's areas of interest off and on (a), and
// sees, in the board's place (w for the board again), what the server's
// own counters say of the last second: the figures of the scale lab
// (scale.go), the same registry /metrics serves.

// teachCrowdSteps are the bots the teacher's b and d go up and down:
// ten times more each step, as the server's caps allow (it says which
// stopped a step).
var teachCrowdSteps = []int{0, 10, 100, 1000, 10000}

// teachCrowd is the teacher's side of the room's crowd: what it asked
// last, while the server has not said it back, and the choice of panel
// or board.
type teachCrowd struct {
	asked    int
	areasOff bool
	sent     bool // asked and areasOff were sent and not said back yet
	board    bool // w: the board in the panel's place
}

// want returns the bots and the areas the room has, or is about to
// have: what this screen sent until the server says it back.
func (s *TeachScreen) crowdWant() (bots int, areasOff bool) {
	c := s.view.Crowd
	if s.crowd.sent {
		if c != nil && int(c.Asked) == s.crowd.asked && c.AreasOff == s.crowd.areasOff {
			s.crowd.sent = false
		} else {
			return s.crowd.asked, s.crowd.areasOff
		}
	}
	if c == nil {
		return 0, false
	}
	return int(c.Asked), c.AreasOff
}

// askCrowd asks for bots and the areas of interest, and shows the
// panel.
func (s *TeachScreen) askCrowd(bots int, areasOff bool) {
	if s.ended || !s.view.Connected || s.view.Crowd == nil {
		return // a server before version 6 runs no bots for a teacher
	}
	s.crowd = teachCrowd{asked: bots, areasOff: areasOff, sent: true}
	s.teacher.Crowd(bots, areasOff)
}

// crowdStep adds the next step's bots (up) or takes the last step away.
func (s *TeachScreen) crowdStep(up bool) {
	bots, off := s.crowdWant()
	s.askCrowd(stepTo(teachCrowdSteps, bots, up, false), off)
}

// crowdAreas turns the room's areas of interest off or on.
func (s *TeachScreen) crowdAreas() {
	bots, off := s.crowdWant()
	s.askCrowd(bots, !off)
}

// crowdShown reports whether the panel is drawn in the board's place:
// while the room has bots or its areas off, unless w chose the board.
func (s *TeachScreen) crowdShown() bool {
	bots, off := s.crowdWant()
	return s.view.Crowd != nil && (bots > 0 || off) && !s.crowd.board
}

// readingOf is the crowd c as a scale panel shows it.
func readingOf(c *client.Crowd) (r ScaleReading, ok bool) {
	r = ScaleReading{Bots: int(c.Asked), Areas: !c.AreasOff}
	k := c.Counters
	if k == nil {
		return r, false
	}
	per := func(v uint32, unit float64) float64 {
		if v == protocol.NoFigure {
			return math.NaN()
		}
		return float64(v) / unit
	}
	dur := func(v uint32) time.Duration {
		if v == protocol.NoFigure {
			return -1
		}
		return time.Duration(v)
	}
	r.Players, r.Ticks = int(k.Players), uint64(k.Ticks)
	r.TickMean, r.TickP99, r.Budget = dur(k.TickMeanNS), dur(k.TickP99NS), max(dur(k.BudgetNS), 0)
	r.Writes, r.BytesPerPlayer = per(k.Writes, 1), per(k.BytesPerPlayer, 1)
	r.MessagesPerState, r.CPU, r.RSS = per(k.MessagesPerStateMilli, 1e3), per(k.CPUPermyriad, 1e4), k.RSS
	return r, true
}

// drawCrowd draws the scale panel into the rectangle: the room's bots
// and areas, the server's figures of the last second, and the cap that
// stopped a step.
func (s *TeachScreen) drawCrowd(screen tcell.Screen, x, y, w, h int) {
	fill(screen, x, y, w, h, tcell.StyleDefault)
	c := s.view.Crowd
	row := y
	put := func(text string, st tcell.Style) {
		if row < y+h {
			putText(screen, x+1, row, w-2, text, st)
		}
		row++
	}
	bots, off := s.crowdWant()
	n := putText(screen, x+1, row, w-2, "Crowd ", styleHeading)
	putText(screen, x+1+n, row, w-2-n, fmt.Sprintf("%s bots in, %s asked", count(int(c.Bots)), count(bots)), styleText)
	row++
	areas := "areas of interest ON"
	if off {
		areas = "areas of interest OFF: all in every State"
	}
	put(areas, styleText)
	put("b more  d fewer  a areas  w board", styleKey)
	if c.Note != "" {
		for _, line := range wrap(c.Note, w-2) {
			put(line, styleWarn)
		}
	}
	r, ok := readingOf(c)
	row++
	if !ok {
		put("the server's counters come every second", styleDim)
		return
	}
	put(fmt.Sprintf("the server's own counters, %d ticks:", r.Ticks), styleHeading)
	for _, f := range scaleFigures(r, fmt.Sprintf("%s in the server", count(r.Players)), "the server's process") {
		if row >= y+h {
			return
		}
		putText(screen, x+1, row, 10, f.label, styleKey)
		text := f.value
		if textWidth(text)+1+textWidth(f.gloss) <= w-12 && f.gloss != "" {
			text += " " + f.gloss
		}
		putText(screen, x+11, row, w-12, text, styleText)
		row++
	}
	if behind(r) {
		row++
		for _, line := range wrap("the ticks take longer than the time between them: the server is behind", w-2) {
			put(line, styleWarn)
		}
	}
	if row < y+h-1 {
		put("", styleText)
		put("the same registry as /metrics", styleDim)
	}
}
