package tui

import (
	"slices"
	"time"

	"gridlag/client"
)

// sameDrawing reports whether two views would be drawn identically, so the
// frame clock can skip painting a frame that would change nothing. Times
// are compared as the screen shows them (whole milliseconds, and whether
// the correction mark is still up).
func sameDrawing(a, b *client.View) bool {
	ms := func(d time.Duration) int64 { return d.Round(time.Millisecond).Milliseconds() }
	if a.Connected != b.Connected || a.Notice != b.Notice || errText(a.Err) != errText(b.Err) || a.Me != b.Me || a.Name != b.Name || a.Map != b.Map ||
		a.Predicted != b.Predicted || a.Server != b.Server || a.HasState != b.HasState ||
		a.LastAck != b.LastAck || a.Corrections != b.Corrections || ms(a.RTT) != ms(b.RTT) ||
		a.Predict != b.Predict || a.Reconcile != b.Reconcile || a.Interpolate != b.Interpolate ||
		ms(a.InterpDelay) != ms(b.InterpDelay) || a.UpdateRate != b.UpdateRate ||
		a.MoveTime != b.MoveTime || a.Latency != b.Latency || a.Jitter != b.Jitter {
		return false
	}
	if !slices.Equal(a.Others, b.Others) {
		return false
	}
	if !slices.EqualFunc(a.Pending, b.Pending, func(p, q client.PendingInput) bool {
		return p.Seq == q.Seq && p.Dir == q.Dir && ms(p.Age) == ms(q.Age)
	}) {
		return false
	}
	ca, cb := a.LastCorrection, b.LastCorrection
	if (ca == nil) != (cb == nil) || ca != nil && *ca != *cb {
		return false
	}
	return correctionVisible(a) == correctionVisible(b)
}

// errText returns the message of err, "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
