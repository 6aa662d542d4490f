package tui

import (
	"fmt"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
)

// The latency budget: one bar from a key press to another player seeing
// it, split into its parts (the speed limit's wait, the way up, the wait
// for the server's tick, the State leaving, the way back, the other's
// interpolation delay), each part with its milliseconds and the knob that
// changes it, and what prediction hides of it for the player's own
// avatar. It follows the knobs live: the latency slider, jitter, the
// update rate, interpolation.

// partColors are the colours of the budget's parts.
var partColors = [client.NumParts]tcell.Color{
	client.PartLimit:  colorLimit,
	client.PartUp:     colorUp,
	client.PartTick:   colorServer,
	client.PartSend:   colorServer,
	client.PartDown:   colorDown,
	client.PartInterp: colorInterp,
}

// budgetRows is how many rows drawBudget takes: its heading, the bar,
// the total, a row a part and the own avatar's.
const budgetRows = 4 + client.NumParts

// drawBudget draws b into r: heading (a line saying who presses and who
// sees), the bar, the parts with their knobs, and the own avatar's wait.
// It returns the rows used.
func drawBudget(screen tcell.Screen, r rect, heading string, b client.Budget, predictKey string) int {
	y := r.y
	line := func(s string, st tcell.Style) {
		if y < r.y+r.h {
			putText(screen, r.x, y, r.w, s, st)
			y++
		}
	}
	line(heading, styleHeading)
	if y < r.y+r.h {
		segs := make([]segment, len(b.Parts))
		for i, p := range b.Parts {
			segs[i] = segment{partColors[i], p.D.Milliseconds()}
		}
		drawBar(screen, r.x, y, r.w, segs, b.Total.Milliseconds())
		y++
	}
	line(fmt.Sprintf("= %s from the key press to the other player seeing it", millis(b.Total)), styleText)
	for i, p := range b.Parts {
		if y >= r.y+r.h {
			break
		}
		n := swatch(screen, r.x, y, r.w, partColors[i], fmt.Sprintf("%-20s %7s", p.Name, millis(p.D)))
		putText(screen, r.x+n+1, y, r.w-n-1, p.Knob, styleDim)
		y++
	}
	own := fmt.Sprintf("your own avatar: prediction hides %s of the server's %s (%s)", millis(b.Hidden), millis(b.Own), predictKey)
	if !b.Predict {
		own = fmt.Sprintf("your own avatar waits %s for the server's word: prediction is off (%s)", millis(b.Own), predictKey)
	}
	line(own, styleText)
	return y - r.y
}

// drawBudgets draws the budgets (with their headings) one under the other
// in an overlay of r under title.
func drawBudgets(screen tcell.Screen, r rect, title, closeKey string, headings []string, budgets []client.Budget, predictKey string) {
	drawOverlayBox(screen, r, title, closeKey)
	y := r.y + 1
	for i, b := range budgets {
		if y >= r.y+r.h {
			return
		}
		y += drawBudget(screen, rect{r.x, y, r.w, r.y + r.h - y}, headings[i], b, predictKey) + 1
	}
}

// ownBudgetHeading heads a player's own budget in the game.
const ownBudgetHeading = "from your press to another player with a link like yours seeing it"
