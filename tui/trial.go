package tui

import (
	"fmt"
	"slices"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"gridlag/client"
	"gridlag/internal/perception"
	"gridlag/protocol"
)

// blindView takes out of a player's view, while a round of its room's
// perception test is played or answered, everything that says the round
// trip: the one it measured, the inputs waiting for their answer and
// their ages, the ghost where the server has the player, the correction
// marks and counts, the interpolation delay, the injected lag and what
// the teacher set. The screen shows the board and the round.
func blindView(v *client.View) {
	if v.Perception.Blind() {
		blindFields(v)
	}
}

// ownNetwork is the game's screen's side of a perception test: the
// player's own injected latency, set to none while it is in a run (the
// test gives its round trips alone) and given back after.
type ownNetwork struct {
	held    bool
	latency time.Duration
}

// perceive follows the player's place in the test (u.view, before it is
// blinded): at a run's first round its own latency goes (and the
// instruments close), after the run it comes back.
func (u *UI) perceive() {
	p := u.view.Perception
	switch {
	case p.Blind() && !u.own.held:
		u.own = ownNetwork{held: true, latency: u.view.Latency}
		if u.view.Latency > 0 {
			u.session.SetLatency(0)
		}
		u.tools.open = noInstrument
	case !p.Blind() && u.own.held:
		if u.own.latency > 0 {
			u.session.SetLatency(u.own.latency)
		}
		u.own = ownNetwork{}
	}
	if p.Blind() {
		u.tools.open = noInstrument
	}
}

// showsResults reports whether the panel shows the player's results of
// its last run: it is over, the player was in it, and Esc did not close
// them.
func (u *UI) showsResults() bool {
	p := u.view.Perception
	return p != nil && p.Phase == protocol.TrialOver && len(p.Results) > 0 && u.closedRun != p.Run
}

// answer answers the round being answered, laggy or fine, or says why
// it cannot.
func (u *UI) answer(laggy bool) {
	p := u.view.Perception
	switch {
	case p == nil || !p.Blind():
		u.say("no perception test round to answer", u.view.Now)
	case p.Phase == protocol.TrialPlay:
		u.say("play first: answer in "+secondsLeft(p.Left), u.view.Now)
	default:
		if a, ok := u.session.(client.Answerer); ok {
			a.Answer(laggy)
		}
	}
}

// closeResults closes the results of the last run (Esc).
func (u *UI) closeResults() {
	if u.showsResults() {
		u.closedRun = u.view.Perception.Run
	}
}

// trialTitle is the top line's notice during the test: the round and its
// phase, or that a run goes on without the player.
func trialTitle(p *client.Perceiving) string {
	switch {
	case p == nil:
		return ""
	case p.Blind():
		return fmt.Sprintf("perception test: round %d of %d, %s %s", p.Round, p.Rounds, p.Phase, secondsLeft(p.Left))
	case p.Phase == protocol.TrialOut:
		return "a perception test is running: you are in the next run"
	}
	return ""
}

// trialStatus is the status line during a round: what to do now.
func trialStatus(p *client.Perceiving) string {
	if p.Phase == protocol.TrialPlay {
		return "perception test: move and zap, feel the lag; answer in " + secondsLeft(p.Left)
	}
	if p.Answer != protocol.NoVerdict {
		return "you said " + verdictWord(p.Answer) + ": press the other key to change it"
	}
	return "perception test: did that feel laggy?  y laggy  n fine"
}

// trialKeysLine is the keys' reminder during a round.
func trialKeysLine() string { return "arrows move  Space zap  y laggy  n fine  ? help  q quit" }

// verdictWord says an answer: "laggy", "fine", "-".
func verdictWord(v protocol.Verdict) string {
	switch v {
	case protocol.Laggy:
		return "laggy"
	case protocol.Fine:
		return "fine"
	}
	return "-"
}

// trialPanel is the game's side panel during a round of the perception
// test, and after a run the player's results: a tview primitive with the
// answer's buttons, which the mouse (a tap on the web page) presses.
type trialPanel struct {
	*tview.Box
	view        func() *client.View
	results     func() bool // the panel shows the player's results
	laggy, fine *button
	controls    controls
}

// newTrialPanel returns the panel of the game's screen u.
func newTrialPanel(u *UI) *trialPanel {
	return &trialPanel{
		Box:     tview.NewBox(),
		view:    func() *client.View { return &u.view },
		results: u.showsResults,
		laggy:   newButton("[ y  laggy ]", func() { u.answer(true) }),
		fine:    newButton("[ n  fine ]", func() { u.answer(false) }),
	}
}

// Draw draws the round or the results.
func (t *trialPanel) Draw(screen tcell.Screen) {
	x, y, w, h := t.GetInnerRect()
	t.controls.reset()
	v := t.view()
	p := v.Perception
	if t.results() {
		drawOwnResults(screen, x, y, w, h, p)
		return
	}
	drawRound(screen, x, y, w, h, roundShown{Round: p.Round, Rounds: p.Rounds, Phase: p.Phase, Left: p.Left, Answer: p.Answer},
		t.laggy, t.fine, &t.controls, roomRoundNote)
}

// roomRoundNote is what a round of the room's test says of the round
// trip; labRoundNote the lab's.
var (
	roomRoundNote = []string{
		"Your round trip is hidden until",
		"the run is over: each round has",
		"its own, the same for nobody.",
		"Answer from what you feel.",
	}
	labRoundNote = []string{
		"Your round trip is hidden until",
		"the run is over: each round has",
		"its own, and now and then none.",
		"Answer from what you feel.",
	}
)

// roundShown is a round of the perception test as its panel shows it:
// never its round trip.
type roundShown struct {
	Round, Rounds int
	Phase         protocol.TrialPhase
	Left          time.Duration
	Answer        protocol.Verdict
}

// drawRound draws a round of the perception test into the rectangle: the
// round, what to do now, the answer's buttons (laggy, fine: a click or a
// tap presses them, through ctl) and the answer given, then note.
func drawRound(screen tcell.Screen, x, y, w, h int, p roundShown, laggy, fine *button, ctl *controls, note []string) {
	put := func(row int, s string, st tcell.Style) {
		if row < h {
			putText(screen, x, y+row, w, s, st)
		}
	}
	n := putText(screen, x, y, w, "Perception test ", styleHeading)
	putText(screen, x+n, y, w-n, fmt.Sprintf("round %d of %d", p.Round, p.Rounds), styleDim)
	if p.Phase == protocol.TrialPlay {
		put(2, "Play: move and zap.", styleText)
		put(3, "How does it feel?", styleText)
		put(4, "Answer in "+secondsLeft(p.Left), styleDim)
	} else {
		put(2, "Did that feel laggy?", styleHeading)
		put(3, "You have "+secondsLeft(p.Left)+"; keep playing", styleDim)
		put(4, "if you are not sure.", styleDim)
	}
	if h > 6 {
		r := &rowWriter{screen: screen, ctl: ctl, x: x, y: y + 6, end: x + w}
		r.put(laggy)
		r.text("  ", styleText)
		r.put(fine)
		if p.Phase == protocol.TrialPlay { // not yet: the buttons say so
			putText(screen, x, y+6, w, fmt.Sprintf("%-*s", w, "[ y  laggy ]  [ n  fine ]"), styleDim)
		}
	}
	if p.Answer != protocol.NoVerdict {
		put(8, "You said: "+verdictWord(p.Answer), styleHeading)
		put(9, "(the other key changes it)", styleDim)
	}
	for i, line := range note {
		put(11+i, line, styleDim)
	}
}

// MouseHandler hands the mouse to the answer's buttons.
func (t *trialPanel) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (consumed bool, capture tview.Primitive) {
	return t.WrapMouseHandler(func(action tview.MouseAction, event *tcell.EventMouse, _ func(tview.Primitive)) (bool, tview.Primitive) {
		return t.controls.mouse(action, event), nil
	})
}

// drawOwnResults draws a player's results of its last run into the
// rectangle: how many rounds it answered, the plot of its answers and
// its threshold, and its answers at each round trip.
func drawOwnResults(screen tcell.Screen, x, y, w, h int, p *client.Perceiving) {
	trials := p.Trials()
	a := perception.Analyse(trials)
	answered := 0
	for _, t := range trials {
		if t.Answer != perception.NoAnswer {
			answered++
		}
	}
	putText(screen, x, y, w, "Perception test: your answers", styleHeading)
	putText(screen, x, y+1, w, fmt.Sprintf("run %d: %d rounds, %d answered", p.Run, len(trials), answered), styleDim)
	rows := h - 3 // the heading, the run, Esc
	levels := levelsOf(&a)
	table := len(levels) + 1
	plotH := rows - table - 1
	if plotH < plotMinH+len(a.Curves) {
		plotH, table = rows, 0
	}
	used := drawPerceptionPlot(screen, x, y+2, w, plotH, &a)
	if table > 0 {
		drawOwnAnswers(screen, x, y+3+used, w, table, trials, levels, a.Curves)
	}
	putText(screen, x, y+h-1, w, "Esc back to the game", styleKey)
}

// drawOwnAnswers draws a row per round trip tested: the player's answers
// there, for each prediction tested (■ laggy, · fine, ? none).
func drawOwnAnswers(screen tcell.Screen, x, y, w, rows int, trials []perception.Trial, levels []int, curves []perception.Curve) {
	n := putText(screen, x, y, w, fmt.Sprintf("%6s", "ms"), styleDim)
	colW := (w - 7) / max(len(curves), 1)
	for i, c := range curves {
		putText(screen, x+n+1+i*colW, y, colW-1, "pred "+map[bool]string{true: "on", false: "off"}[c.Predict], curveStyle(c.Predict))
	}
	for r, ms := range levels {
		if r+1 >= rows {
			return
		}
		putText(screen, x, y+1+r, 6, fmt.Sprintf("%6d", ms), styleDim)
		for i, c := range curves {
			var marks []perception.Answer
			for _, t := range trials {
				if t.RTTMS == ms && t.Predict == c.Predict {
					marks = append(marks, t.Answer)
				}
			}
			slices.Sort(marks)
			col := x + n + 1 + i*colW
			for j, a := range marks {
				mark, st := "·", styleText
				switch a {
				case perception.Laggy:
					mark, st = "■", curveStyle(c.Predict)
				case perception.NoAnswer:
					mark, st = "?", styleDim
				}
				if j < colW-1 {
					screen.Put(col+j, y+1+r, mark, st)
				}
			}
		}
	}
}
