package tui

import (
	"fmt"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
)

// WinnerBannerTime is how long the board shows who won a round once the
// next one starts.
const WinnerBannerTime = 4 * time.Second

// banner is the news of a round's end, shown over the board for a while:
// "round 3: ada wins with 7".
type banner struct {
	text  string
	until time.Duration // on the view's clock
}

// note starts the banner when the server's round moved on between two
// views, from prev to round (not when the first scoreboard arrives
// mid-game), at now, naming the winner the server gave.
func (b *banner) note(prev, round int, winner *client.Winner, now time.Duration) {
	if prev == 0 || round <= prev {
		return
	}
	b.text = fmt.Sprintf("round %d over: nobody scored", round-1)
	if w := winner; w != nil {
		b.text = fmt.Sprintf("round %d: %s wins with %d", round-1, w.Name, w.Points)
	}
	b.until = now + WinnerBannerTime
}

// shown reports whether the banner is up at now.
func (b *banner) shown(now time.Duration) bool { return b.text != "" && now < b.until }

// draw writes the banner across the top of the rectangle, centred.
func (b *banner) draw(screen tcell.Screen, x, y, w int) {
	bw := min(textWidth(b.text)+4, w)
	bx := x + (w-bw)/2
	fill(screen, bx, y, bw, 3, styleBanner)
	putText(screen, bx+2, y+1, bw-4, b.text, styleBanner)
}
