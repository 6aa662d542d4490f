package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/protocol"
)

// JudgedZapTime is how long, on the lab's clock, the server's board shows
// the last zap it judged: the beam as the server traced it, and a faint
// mark of the target where the shooter saw it.
const JudgedZapTime = time.Second

// styleJudged is the faint mark of a target where the shooter saw it:
// what the server judged the zap against.
var styleJudged = tcell.StyleDefault.Foreground(tcell.ColorGray).Underline(true)

// toggleLagComp switches the server's lag compensation, live.
func (s *LabScreen) toggleLagComp() { s.model.SetLagComp(!s.model.LagComp()) }

// drawZapInfo draws, from (x, y), the server's lag compensation switch,
// the scoreboard and the last zap it judged, in at most rows rows, and
// returns the rows used.
func (s *LabScreen) drawZapInfo(screen tcell.Screen, x, y, w, rows int) int {
	lines := s.zapInfoLines()
	n := min(rows, 1+len(lines))
	if n <= 0 {
		return 0
	}
	r := &rowWriter{screen: screen, ctl: &s.controls, x: x, y: y, end: x + w}
	r.put(s.lagComp)
	r.text("  "+tableGroupLabels(labKeyTable, "lagcomp"), styleDim)
	for i, l := range lines[:n-1] {
		putText(screen, x, y+1+i, w, l, styleText)
	}
	return n
}

// zapInfoLines returns the server's scoreboard on one line and the last
// zap it judged on two: "zap Player 1: hit Player 2", "judged at
// (14,10), rewound 230ms": where the target was in the world the server
// judged against; and on a third where the shooter saw it, when that
// differs: "(Player 1 saw it at (12,10))".
func (s *LabScreen) zapInfoLines() []string {
	var scores []string
	for _, l := range s.scores {
		mark := ""
		if l.Frozen {
			mark = " (frozen)"
		}
		scores = append(scores, fmt.Sprintf("%s %d%s", l.Name, l.Points, mark))
	}
	lines := []string{"score " + strings.Join(scores, ", ")}
	if !s.zapped {
		return lines
	}
	z := s.zap
	what := "miss: " + z.Outcome.String()
	switch z.Outcome {
	case protocol.ZapHit:
		what = "hit " + z.Target
	case protocol.ZapLeft:
		what = "miss: " + z.Target + " had left"
	case protocol.ZapProtected:
		what = "miss: " + z.Target + " safe"
	case protocol.ZapTagged:
		what = "miss: " + z.Target + " was tagged"
	}
	lines = append(lines, "zap "+z.Shooter+": "+what)
	if z.Target == "" {
		return lines
	}
	rewind := "no rewind"
	if z.Rewind > 0 {
		rewind = "rewound " + millis(z.Rewind)
	}
	lines = append(lines, fmt.Sprintf("judged at %v, %s", z.Judged, rewind))
	if z.Judged != z.Seen { // the target had moved since the shooter's world
		lines = append(lines, fmt.Sprintf("(%s saw it at %v)", z.Shooter, z.Seen))
	}
	return lines
}

// judgedZap returns the last judged zap for the server's board while it
// is recent, nil otherwise.
func (s *LabScreen) judgedZap() *LabZap {
	if !s.zapped || s.model.Now()-s.zap.At >= JudgedZapTime {
		return nil
	}
	return &s.zap
}
