package tui

import (
	"strconv"

	"gridlag/client"
)

// statusLine writes the status line: both positions first, in the form
// "you (11,10)  server (10,10)", then the measured round trip and the
// settings that shape what the player sees.
func statusLine(v *client.View) string {
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
	return "you " + you + "  server " + server + "  rtt " + rtt +
		"   updates " + rate + "  move " + millis(v.MoveTime) +
		"  lag " + millis(v.Latency) + " ±" + millis(v.Jitter) +
		"  interp " + interp
}
