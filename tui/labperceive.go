package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/internal/perception"
	"gridlag/protocol"
)

// The perception test in the lab (see package lab's perceive.go): one
// student alone, Player 1, plays blind. While a round lasts the lab's
// screen draws Player 1's board alone, blinded as the game's is (no
// ghost, no correction), and the round's panel: no server board (its
// players' round trips), no strips (the messages' flight times), no
// panels (the latency slider, the ledger's ages), no instruments (the
// net graph, the waterfall, the budget), no Player 2 (its lag figures),
// and the keys of the state "perception test" alone. At the end the
// screen shows the student's results over the boards until Esc: the plot
// of their answers, prediction on and off, their thresholds, their
// answers at each round trip, and where the CSV went.

// LabPerception is where the lab's perception test is, for the screen
// (see LabModel.Perception): a round of the run in progress (never its
// round trip), or the last run's results; the zero value when neither
// shows.
type LabPerception struct {
	Run, Round, Rounds int
	// Phase is TrialPlay or TrialAnswer while a run lasts, TrialOver
	// when its results show, 0 otherwise.
	Phase  protocol.TrialPhase
	Left   time.Duration    // what is left of the phase
	Answer protocol.Verdict // the round's answer so far
	// Trials are the run's answers, once it is over; Note says where
	// they were saved.
	Trials  []perception.Trial
	Note    string
	Student string // the student's player's name
}

// Blind reports whether a round is being played or answered.
func (p LabPerception) Blind() bool {
	return p.Phase == protocol.TrialPlay || p.Phase == protocol.TrialAnswer
}

// labTestState is the lab's key state during a round of the test.
const labTestState = "during the perception test (Player 1 plays blind)"

// labTestKeys are the rows of the lab's key table that work during a
// round of the perception test: Player 1 moves and zaps, answers, stops
// the test, and help and quit.
func labTestKeys() []binding[*LabScreen] {
	zap := func(s *LabScreen) { s.players[0].Zap() }
	moves := append(labMoveKeys(0, map[grid.Dir]tcell.Key{
		grid.Up: tcell.KeyUp, grid.Down: tcell.KeyDown, grid.Left: tcell.KeyLeft, grid.Right: tcell.KeyRight}, ""),
		keyDo[*LabScreen]{key: tcell.KeyRune, ch: ' ', do: zap}, keyDo[*LabScreen]{key: tcell.KeyEnter, do: zap})
	help, quit := helpBinding[*LabScreen](), quitBinding[*LabScreen]()
	return []binding[*LabScreen]{
		{label: "↑↓←→ Spc", help: "Player 1 moves; Space (or Enter) zaps", state: labTestState, keys: moves},
		{label: "y n p ? q", help: "that felt laggy (y) or fine (n); p stops the test; help; quit", state: labTestState,
			keys: concat(runeKeys("y", func(s *LabScreen) { s.model.AnswerPerception(true) }),
				runeKeys("n", func(s *LabScreen) { s.model.AnswerPerception(false) }),
				runeKeys("p", func(s *LabScreen) { s.model.StopPerception() }),
				help.keys, quit.keys)},
	}
}

// startTest starts the perception test: the instruments close.
func (s *LabScreen) startTest() {
	s.tools.open = noInstrument
	s.model.StartPerception()
}

// closeTest closes the test's results (Esc).
func (s *LabScreen) closeTest() { s.model.ClosePerception() }

// drawBlind draws the lab during a round of the test: the header, Player
// 1's board, blinded, and the round's panel on its right (under it when
// narrow), the keys at the bottom.
func (s *LabScreen) drawBlind(screen tcell.Screen, w, h, mw, mh int) {
	fill(screen, 0, 0, w, h, styleText)
	blindFields(&s.views[0])
	fill(screen, 0, 0, w, 1, styleTitle)
	p := s.test
	putText(screen, 1, 0, w-2, fmt.Sprintf("gridlag lab   perception test   round %d of %d, %s %s", p.Round, p.Rounds, p.Phase, secondsLeft(p.Left)), styleTitle)
	heading := s.marks[0] + " " + labHeadings[labPlayer1] + " (you)"
	putText(screen, (mw-textWidth(heading))/2, 1, mw, heading, playerStyle(s.colors[0], false))
	s.boards[0].SetRect(0, 2, mw, min(mh, h-3))
	s.boards[0].Draw(screen)
	x, y, pw, ph := mw+2, 2, w-mw-2, h-3
	if pw < 30 {
		x, y, pw, ph = 0, 2+mh, w, h-3-mh
	}
	drawRound(screen, x, y, pw, ph, roundShown{Round: p.Round, Rounds: p.Rounds, Phase: p.Phase, Left: p.Left, Answer: p.Answer},
		s.testLaggy, s.testFine, &s.controls, labRoundNote)
	putText(screen, 0, h-1, w, "arrows move  Space zap  y laggy  n fine  p stop  ? help  q quit", styleKey)
}

// blindFields takes out of a player's view everything that says its
// round trip: the one it measured, the inputs waiting for their answer
// and their ages, the ghost where the server has it, the correction
// marks and counts, the interpolation delay, the injected lag and what
// the teacher set.
func blindFields(v *client.View) {
	v.RTT, v.Pending, v.LastCorrection, v.Corrections = 0, nil, nil, 0
	v.Server = v.Predicted
	v.InterpDelay, v.Latency, v.Jitter = 0, 0, 0
	v.Teaching = nil
}

// drawLabResults draws the student's results of the lab's test over the
// screen under its header: the plot of their answers (prediction on and
// off) on the left, their thresholds and answers at each round trip on
// the right (under it when narrow), and where the answers were saved.
func drawLabResults(screen tcell.Screen, x, y, w, h int, p LabPerception) {
	fill(screen, x, y, w, h, styleText)
	a := perception.Analyse(p.Trials)
	answered := 0
	for _, t := range p.Trials {
		if t.Answer != perception.NoAnswer {
			answered++
		}
	}
	head := fmt.Sprintf("Perception test: how much lag did %s feel? · run %d, %d rounds, %d answered", p.Student, p.Run, len(p.Trials), answered)
	putText(screen, x, y, w, head, styleHeading)
	foot := "p again  Esc back to the lab"
	putText(screen, x, y+h-1, w, foot, styleKey)
	body := h - 2
	if p.Note != "" {
		// A long path goes on a row of its own, after what it says.
		lines := []string{p.Note}
		if head, path, ok := strings.Cut(p.Note, ": "); ok && textWidth(p.Note) > w {
			lines = []string{head + ":", path}
		}
		body -= len(lines)
		for i, line := range lines {
			putText(screen, x, y+h-1-len(lines)+i, w, line, styleDim)
		}
	}
	levels := levelsOf(&a)
	side := 34
	if w-side < plotMinW+10 {
		used := drawPerceptionPlot(screen, x, y+1, w, max(body-len(levels)-3, plotMinH+len(a.Curves)), &a)
		drawOwnAnswers(screen, x, y+2+used, w, body-used-1, p.Trials, levels, a.Curves)
		return
	}
	pw := w - side - 1
	drawPerceptionPlot(screen, x, y+1, pw, body, &a)
	rx := x + pw + 1
	row := y + 1
	putText(screen, rx, row, side, "Your threshold", styleHeading)
	row++
	for _, c := range a.Curves {
		ms, kind := perception.Fifty(c.Points)
		line := fmt.Sprintf("%s %s: %s", curveMark(c.Predict), predictWord(c.Predict), perception.ThresholdText(ms, kind))
		putText(screen, rx, row, side, line, curveStyle(c.Predict))
		row++
		if z, ok := c.Zero(); ok {
			putText(screen, rx+2, row, side-2, fmt.Sprintf("false alarms %d of %d at 0ms", z.LaggyAnswers, z.Trials), styleDim)
			row++
		}
	}
	row++
	putText(screen, rx, row, side, "Answers: ■ laggy · fine ? none", styleDim)
	row++
	drawOwnAnswers(screen, rx, row, side, y+1+body-row, p.Trials, levels, a.Curves)
}
