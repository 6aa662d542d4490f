package tui

import (
	"strconv"
	"strings"

	"gridlag/client"
)

// statusLine writes the status line: both positions first, in the form
// "you (11,10)  server (10,10)" ("you (412,87) of 1024x1024  server
// (412,86)" on a map too big for the board), then the measured round trip and the
// settings that shape what the player sees. A figure shows only once it
// is known: the positions with the first state, the round trip once
// measured, the update rate and move time with the server's welcome, the
// interpolation delay with the first state. When the line is wider than
// width, the least telling fields go first (move time, update rate, the
// injected lag, the interpolation delay), so the positions and the round
// trip always show.
func statusLine(v *client.View, width int) string {
	return statusLinePlaced(v, width, mapPlace(v, width))
}

// statusLinePlaced is statusLine with place after your position: the
// lab's boards show the map whole, whatever the panel's width, so its
// panels pass "".
func statusLinePlaced(v *client.View, width int, place string) string {
	// In display order; drop holds the order in which fields give way.
	fields := make([]string, 6)
	if v.HasState {
		fields[0] = "you " + v.Predicted.String() + place + "  server " + v.Server.String()
	}
	if v.RTT > 0 {
		fields[1] = "rtt " + millis(v.RTT) + " "
	}
	if v.MoveTime > 0 { // both come with the server's welcome
		fields[2] = "updates " + rateText(v.UpdateRate)
		fields[3] = "move " + millis(v.MoveTime)
	}
	fields[4] = "lag " + millis(v.Latency) + " ±" + millis(v.Jitter)
	switch {
	case !v.Interpolate:
		fields[5] = "interp off"
	case v.HasState:
		fields[5] = "interp " + millis(v.InterpDelay)
	}
	drop := []int{3, 2, 4, 5}
	line := joinNonEmpty(fields)
	for _, i := range drop {
		if textWidth(line) <= width {
			break
		}
		fields[i] = ""
		line = joinNonEmpty(fields)
	}
	return line
}

// bigMapRows is the most rows a board shows: a taller map is seen
// through the board's camera.
const bigMapRows = 64

// mapPlace returns " of WxH" when the map is too big to be on the board
// whole (wider than the line, about the board's width, or taller than
// bigMapRows), so that the player knows where on it they are; else "".
func mapPlace(v *client.View, width int) string {
	if m := v.Map; m != nil && (m.Width() > width || m.Height() > bigMapRows) {
		return " of " + strconv.Itoa(m.Width()) + "x" + strconv.Itoa(m.Height())
	}
	return ""
}

// joinNonEmpty joins the parts that are not empty, two spaces apart.
func joinNonEmpty(parts []string) string {
	kept := parts[:0:0]
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "  ")
}
