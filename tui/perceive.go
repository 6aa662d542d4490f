package tui

import (
	"fmt"
	"math"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/internal/perception"
	"gridlag/protocol"
)

// The perception test (protocol version 6) on the screens. A student in a
// round plays blind: the game's screen shows no round trip, no ledger, no
// ghost, no correction and no instrument (blind), its panel says the
// round and takes the answer (trialPanel: y laggy, n fine, or a click),
// and when the run is over it shows the student's own results, a plot of
// its answers and its threshold (drawOwnResults) until Esc. The
// spectator's screen (the projector) and the teacher's say where the run
// is on their top line, hide every round trip while it runs, and show the
// class's results when it is over: the share who said "laggy" against the
// round trip injected, prediction on and off (drawPerceptionPlot), and
// each student's threshold (drawThresholds); o goes back to the board and
// to the results again.

// The marks of the plot's two curves, and their colours.
const (
	markOn   = "●"
	markOff  = "○"
	markBoth = "◉"
)

var (
	styleCurveOn  = tcell.StyleDefault.Foreground(tcell.ColorAqua).Bold(true)
	styleCurveOff = tcell.StyleDefault.Foreground(tcell.ColorFuchsia).Bold(true)
)

// curveStyle is the style of the curve of prediction on or off.
func curveStyle(on bool) tcell.Style {
	if on {
		return styleCurveOn
	}
	return styleCurveOff
}

// curveMark is the mark of the curve of prediction on or off.
func curveMark(on bool) string {
	if on {
		return markOn
	}
	return markOff
}

// predictWord is a prediction as the plot's legend says it.
func predictWord(on bool) string {
	if on {
		return "prediction on"
	}
	return "prediction off"
}

// plotMinW and plotMinH are the smallest rectangle the plot draws in.
const (
	plotMinW = 24
	plotMinH = 6
)

// drawPerceptionPlot draws the curves of a into the rectangle: the share
// of "laggy" answers (0 to 100 %) against the round trip injected, a mark
// at each round trip tested, dots between them, and the 50 % line; under
// it the axis of round trips, then a line per curve with its 50 % point
// and its false alarms at 0 ms. It returns the rows it used.
func drawPerceptionPlot(screen tcell.Screen, x, y, w, h int, a *perception.Analysis) int {
	legend := len(a.Curves)
	plotH := h - 2 - legend // the axis and its labels, the legend
	if w < plotMinW || plotH < plotMinH-2-legend || len(a.Curves) == 0 {
		if h > 0 {
			putText(screen, x, y, w, "no answers yet", styleDim)
		}
		return min(h, 1)
	}
	maxMS := 0
	for _, c := range a.Curves {
		for _, p := range c.Points {
			maxMS = max(maxMS, p.RTTMS)
		}
	}
	maxMS = max(maxMS, 1)
	const labelW = 5 // "100% "
	px, pw := x+labelW, w-labelW-1
	col := func(ms int) int { return px + 1 + int(math.Round(float64(ms)/float64(maxMS)*float64(pw-2))) }
	row := func(share float64) int { return y + int(math.Round((1-share)*float64(plotH-1))) }

	for r := 0; r < plotH; r++ {
		screen.Put(px, y+r, "│", styleDim)
	}
	for _, l := range []struct {
		share float64
		text  string
	}{{1, "100%"}, {0.5, " 50%"}, {0, "  0%"}} {
		putText(screen, x, row(l.share), labelW-1, l.text, styleDim)
		screen.Put(px, row(l.share), "┤", styleDim)
	}
	for c := px + 1; c < px+pw; c++ {
		screen.Put(c, row(0.5), "┄", styleDim)
	}
	// The dots first, the marks over them.
	for _, c := range a.Curves {
		st := curveStyle(c.Predict)
		pts := answered(c.Points)
		for i := 1; i < len(pts); i++ {
			a, b := pts[i-1], pts[i]
			for cc := col(a.RTTMS) + 1; cc < col(b.RTTMS); cc++ {
				f := float64(cc-col(a.RTTMS)) / float64(col(b.RTTMS)-col(a.RTTMS))
				screen.Put(cc, row(a.Share()+f*(b.Share()-a.Share())), "·", st)
			}
		}
	}
	marks := map[[2]int]int{} // the curves with a mark on a cell: 1 on, 2 off
	for _, c := range a.Curves {
		bit := 2
		if c.Predict {
			bit = 1
		}
		for _, p := range answered(c.Points) {
			marks[[2]int{col(p.RTTMS), row(p.Share())}] |= bit
		}
	}
	for at, bits := range marks {
		switch bits {
		case 1:
			screen.Put(at[0], at[1], markOn, styleCurveOn)
		case 2:
			screen.Put(at[0], at[1], markOff, styleCurveOff)
		default:
			screen.Put(at[0], at[1], markBoth, styleHeading)
		}
	}

	// The axis: a tick at each round trip tested, its label under it when
	// there is room.
	axis := y + plotH
	screen.Put(px, axis, "└", styleDim)
	for c := px + 1; c < px+pw; c++ {
		screen.Put(c, axis, "─", styleDim)
	}
	putText(screen, x, axis+1, labelW-1, "  ms", styleDim)
	next := px
	for _, ms := range levelsOf(a) {
		c := col(ms)
		screen.Put(c, axis, "┴", styleDim)
		label := fmt.Sprint(ms)
		at := min(c-textWidth(label)/2, x+w-textWidth(label))
		if at > next {
			putText(screen, at, axis+1, textWidth(label), label, styleDim)
			next = at + textWidth(label)
		}
	}
	for i, c := range a.Curves {
		drawCurveLegend(screen, x, axis+2+i, w, c)
	}
	return plotH + 2 + legend
}

// drawCurveLegend writes curve c's line of the legend: its mark, its
// prediction, where half said "laggy", and its false alarms at 0 ms, in
// fewer words when narrow.
func drawCurveLegend(screen tcell.Screen, x, y, w int, c perception.Curve) {
	n := putText(screen, x, y, w, curveMark(c.Predict)+" ", curveStyle(c.Predict))
	fifty := perception.ThresholdText(perception.Fifty(c.Points))
	word := map[bool]string{true: "on", false: "off"}[c.Predict]
	texts := []string{predictWord(c.Predict) + ": 50% at " + fifty, "pred " + word + ": 50% at " + fifty, word + ": " + fifty}
	if z, ok := c.Zero(); ok {
		texts[0] += fmt.Sprintf(", false alarms %d/%d", z.LaggyAnswers, z.Trials)
		texts[1] += fmt.Sprintf(", %d/%d at 0ms", z.LaggyAnswers, z.Trials)
		texts[2] += fmt.Sprintf(", %d/%d at 0", z.LaggyAnswers, z.Trials)
	}
	text := texts[len(texts)-1]
	for _, t := range texts {
		if textWidth(t) <= w-n {
			text = t
			break
		}
	}
	putText(screen, x+n, y, w-n, text, styleText)
}

// answered returns the points of a curve with answers.
func answered(points []perception.Point) []perception.Point {
	var out []perception.Point
	for _, p := range points {
		if p.Trials > 0 {
			out = append(out, p)
		}
	}
	return out
}

// levelsOf returns the round trips tested in a, rising.
func levelsOf(a *perception.Analysis) []int { return a.Levels() }

// drawThresholds draws a's thresholds into the rectangle: a heading,
// then a row per student with its 50 % point for each prediction tested
// and its false alarms at 0 ms, then the class's, as many as fit (from
// the first student from); it returns the rows it used.
func drawThresholds(screen tcell.Screen, x, y, w, h int, a *perception.Analysis) int {
	if h <= 0 {
		return 0
	}
	type student struct {
		name string
		th   [2]*perception.Threshold // on, off
	}
	var list []*student
	index := map[int]*student{}
	for i := range a.Thresholds {
		th := &a.Thresholds[i]
		s := index[th.Player]
		if s == nil {
			s = &student{name: th.Name}
			index[th.Player] = s
			list = append(list, s)
		}
		s.th[curveIndex(th.Predict)] = th
	}
	nameW := 5
	for _, s := range list {
		nameW = max(nameW, min(textWidth(s.name), scoreNameWidth))
	}
	var cols []bool // the predictions tested, on first
	for _, c := range a.Curves {
		cols = append(cols, c.Predict)
	}
	head := padText("", nameW)
	for _, on := range cols {
		head += fmt.Sprintf(" %10s", map[bool]string{true: "pred on", false: "pred off"}[on])
	}
	n := putText(screen, x, y, w, "Thresholds", styleHeading)
	putText(screen, x+n, y, w-n, ": where half said laggy", styleDim)
	if h < 2 {
		return 1
	}
	putText(screen, x, y+1, w, head, styleDim)
	rows := max(h-3, 0) // the heading, the columns' heads, the class
	shown, more := len(list), 0
	if shown > rows {
		shown = max(rows-1, 0)
		more = len(list) - shown
	}
	for i, s := range list[:shown] {
		line := padText(s.name, nameW)
		for _, on := range cols {
			line += " " + thresholdCell(s.th[curveIndex(on)])
		}
		putText(screen, x, y+2+i, w, line, styleText)
	}
	used := 2 + shown
	if more > 0 && used < h {
		putText(screen, x, y+used, w, fmt.Sprintf("… and %d more", more), styleDim)
		used++
	}
	if used < h {
		line := padText("class", nameW)
		for _, on := range cols {
			c, _ := a.Curve(on)
			cell := perception.ThresholdText(perception.Fifty(c.Points))
			if z, ok := c.Zero(); ok {
				cell += fmt.Sprintf(" %d/%d", z.LaggyAnswers, z.Trials)
			}
			line += " " + fmt.Sprintf("%10s", cell)
		}
		putText(screen, x, y+used, w, line, styleHeading)
		used++
	}
	return used
}

// curveIndex is where a threshold of prediction on (0) or off (1) goes.
func curveIndex(on bool) int {
	if on {
		return 0
	}
	return 1
}

// thresholdCell writes a threshold and its false alarms in 10 columns:
// "125ms 0/4", ">400ms", "-".
func thresholdCell(th *perception.Threshold) string {
	if th == nil {
		return fmt.Sprintf("%10s", "-")
	}
	s := th.Text()
	if th.Controls > 0 {
		s += fmt.Sprintf(" %d/%d", th.FalseAlarms, th.Controls)
	}
	return fmt.Sprintf("%10s", s)
}

// drawPerceptionResults draws the results of a room's test into the
// rectangle: a heading, the plot and the thresholds beside it (under it
// when narrow), and the server's note (where the answers were saved).
func drawPerceptionResults(screen tcell.Screen, x, y, w, h int, p *client.ClassPerception) {
	fill(screen, x, y, w, h, styleText)
	a := perception.Analyse(p.Trials)
	students := map[int]bool{}
	for _, t := range p.Trials {
		students[t.Player] = true
	}
	head := fmt.Sprintf("Perception test: who felt lag · %d students, %s", len(students), runsText(a.Runs))
	n := putText(screen, x, y, w, head, styleHeading)
	if hint := "o: the board"; w-n > textWidth(hint)+2 {
		putText(screen, x+w-textWidth(hint), y, textWidth(hint), hint, styleKey)
	}
	body := h - 1
	if p.Note != "" {
		body--
		putText(screen, x, y+h-1, w, p.Note, styleDim)
	}
	if w >= 76 {
		pw := w * 11 / 20
		drawPerceptionPlot(screen, x, y+1, pw-1, body, &a)
		drawThresholds(screen, x+pw+1, y+1, w-pw-1, body, &a)
		return
	}
	used := drawPerceptionPlot(screen, x, y+1, w, min(body, max(body/2+2, plotMinH+len(a.Curves))), &a)
	drawThresholds(screen, x, y+2+used, w, body-used-1, &a)
}

// runsText says how many runs the answers come from: "1 run", "runs 1-3".
func runsText(runs int) string {
	if runs <= 1 {
		return "1 run"
	}
	return fmt.Sprintf("runs 1-%d", runs)
}

// PerceptionLine says in a line where a room's test is, for a watcher's
// top line: "perception test: round 3/18, answer 7s, waiting for 2 of 6";
// "" when no run is in progress.
func PerceptionLine(p *client.ClassPerception) string {
	if !p.Running() {
		return ""
	}
	s := fmt.Sprintf("perception test: round %d/%d, %s %s", p.Round, p.Rounds, p.Phase, secondsLeft(p.Left))
	if p.Phase == protocol.TrialAnswer {
		s += fmt.Sprintf(", waiting for %d of %d", len(p.Waiting), p.Students)
	}
	return s
}

// secondsLeft writes what is left of a phase in whole seconds, rounded up:
// "7s".
func secondsLeft(d time.Duration) string {
	return fmt.Sprintf("%ds", (d+time.Second-1)/time.Second)
}

// blindWorld takes every round trip out of a watcher's view while a run
// of its room's test is in progress: the players' (the server measures
// them), the reports' (a teacher's class list) and the followed
// student's view of itself (its round trip, pending inputs and ghost;
// the server relays none while the run lasts), so that the projector
// gives nobody's away.
func blindWorld(v *client.WorldView) {
	if !v.Perception.Running() {
		return
	}
	v.Sight = nil
	for i := range v.Players {
		v.Players[i].RTT, v.Players[i].HasRTT = 0, false
	}
	for i := range v.Reports {
		v.Reports[i].RTT, v.Reports[i].HasRTT = 0, false
	}
}

// perceptionResults is a watcher's screen's choice between the board and
// the results of its room's perception test: the results show when a run
// is over, over the board, until o (and o again shows them).
type perceptionResults struct {
	board int // the run after which o chose the board; 0: the results
	run   int // the last run seen over
}

// shown reports whether the results are drawn over the board of v.
func (r *perceptionResults) shown(v *client.WorldView) bool {
	p := v.Perception
	if p == nil || p.Running() || len(p.Trials) == 0 || p.Phase != protocol.TrialOver {
		return false
	}
	if p.Run != r.run {
		r.run, r.board = p.Run, 0 // a new run's results come up by themselves
	}
	return r.board != p.Run
}

// toggle shows the board in place of the results, or the results again.
func (r *perceptionResults) toggle() {
	if r.board == r.run {
		r.board = 0
		return
	}
	r.board = r.run
}

// resultsBinding is the row of a watcher's key table that shows the
// board or the perception test's results.
func resultsBinding[T interface{ perceptionResults() *perceptionResults }]() binding[T] {
	return binding[T]{label: "o", help: "the perception test's results, or the board", brief: "o", group: "results",
		keys: runeKeys("o", func(s T) { s.perceptionResults().toggle() })}
}

// perceptionResults returns the screen's choice of board or results.
func (s *SpectateScreen) perceptionResults() *perceptionResults { return &s.results }

// countdown is how soon a watcher's top line changes with time alone: at
// the next second of the countdown of a run's phase; 0 when no run is in
// progress.
func countdown(p *client.ClassPerception) time.Duration {
	if !p.Running() || p.Left <= 0 {
		return 0
	}
	if tick := p.Left % time.Second; tick > 0 {
		return tick
	}
	return time.Second
}

// drawTestRow draws the teacher's row of the perception test: while a
// run is in progress, its round and phase and [stop]; else [start], the
// next run's prediction, and o when there are results.
func (s *TeachScreen) drawTestRow(r *rowWriter, hint func(*rowWriter, string)) {
	p := s.view.Perception
	r.text("Perception ", styleHeading)
	if p.Running() {
		r.text(fmt.Sprintf("%d/%d %s %s ", p.Round, p.Rounds, p.Phase, secondsLeft(p.Left)), styleText)
		s.testButton.label = "[stop]"
		r.put(s.testButton)
		hint(r, "e")
		return
	}
	s.testButton.label = "[start]"
	r.put(s.testButton)
	r.text(" pred ", styleText)
	s.testMode.label = "[" + s.test.Mode.String() + "]"
	r.put(s.testMode)
	hint(r, "e v")
	if p != nil && len(p.Trials) > 0 {
		hint(r, "o")
	}
}
