package tui

import (
	"strconv"
	"strings"

	"gridlag/client"
)

// statusLine writes the status line: both positions first, in the form
// "you (11,10)  server (10,10)", then the measured round trip and the
// settings that shape what the player sees. When the line is wider than
// width, the least telling fields go first (move time, update rate, the
// injected lag, the interpolation delay), so the positions and the round
// trip always show.
func statusLine(v *client.View, width int) string {
	you, server := "—", "—"
	if v.HasState {
		you, server = v.Predicted.String(), v.Server.String()
	}
	rtt := "—"
	if v.RTT > 0 {
		rtt = millis(v.RTT)
	}
	rate := "per input"
	if v.UpdateRate > 0 {
		rate = strconv.Itoa(v.UpdateRate) + "/s"
	}
	interp := "off"
	if v.Interpolate {
		interp = millis(v.InterpDelay)
	}
	// In display order; drop holds the order in which fields give way.
	fields := []string{
		"you " + you + "  server " + server,
		"rtt " + rtt + " ",
		"updates " + rate,
		"move " + millis(v.MoveTime),
		"lag " + millis(v.Latency) + " ±" + millis(v.Jitter),
		"interp " + interp,
	}
	drop := []int{3, 2, 4, 5}
	line := strings.Join(fields, "  ")
	for _, i := range drop {
		if textWidth(line) <= width {
			break
		}
		fields[i] = ""
		line = joinNonEmpty(fields)
	}
	return line
}

func joinNonEmpty(parts []string) string {
	kept := parts[:0:0]
	for _, p := range parts {
		if p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "  ")
}
