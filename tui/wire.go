package tui

import (
	"fmt"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/internal/wire"
)

// The wire overlay (key o, the game's screen only: the lab's network is
// simulated) shows what the player's moves cost the wire, layer by layer:
// the game's frames, the terminal's keys and escape sequences, SSH's or
// the WebSocket's framing, TCP/IP's segments and headers, per move and
// per second over the last few seconds. Its figures are the front end's
// counters and the kernel's (Options.Wire, package wire), read at each
// frame while it is open; nothing is estimated.

// wireWindow is how far back the overlay's figures go.
const wireWindow = 5 * time.Second

// wireSample is one reading of the meter, and the player's inputs the
// server had acknowledged then.
type wireSample struct {
	at    time.Time
	snap  wire.Snapshot
	acked uint32
}

// wireHistory is the overlay's readings over the last wireWindow, oldest
// first (one older, the window's start).
type wireHistory struct {
	meter   *wire.Meter
	samples []wireSample
}

// sample reads the meter at now, the player's session acknowledged up to
// input acked, and forgets what is older than the window.
func (h *wireHistory) sample(now time.Time, acked uint32) {
	if h.meter == nil {
		return
	}
	if n := len(h.samples); n > 0 && now.Sub(h.samples[n-1].at) < 100*time.Millisecond {
		return
	}
	s := wireSample{at: now, snap: h.meter.Snapshot(), acked: acked}
	if n := len(h.samples); n > 0 && (acked < h.samples[n-1].acked || s.snap.Socket != h.samples[n-1].snap.Socket) {
		h.samples = h.samples[:0] // a new game session, or a new connection: start again
	}
	h.samples = append(h.samples, s)
	drop := 0
	for drop+1 < len(h.samples) && now.Sub(h.samples[drop+1].at) >= wireWindow {
		drop++
	}
	h.samples = append(h.samples[:0], h.samples[drop:]...)
}

// reset forgets the readings: the overlay opens on a fresh window.
func (h *wireHistory) reset() { h.samples = h.samples[:0] }

// window is what went through between the oldest reading and the latest,
// the moves acknowledged meanwhile, and how long it was.
func (h *wireHistory) window() (d wire.Snapshot, moves int64, span time.Duration, ok bool) {
	if len(h.samples) < 2 {
		return d, 0, 0, false
	}
	first, last := h.samples[0], h.samples[len(h.samples)-1]
	return last.snap.Sub(first.snap), int64(last.acked - first.acked), last.at.Sub(first.at), true
}

// frontNames name the front ends in the overlay's title.
var frontNames = map[string]string{wire.FrontTCP: "TCP (gridlag play)", wire.FrontSSH: "SSH", wire.FrontWeb: "the web (WebSocket)"}

// drawWire draws the wire overlay over r.
func drawWire(screen tcell.Screen, r rect, h *wireHistory) {
	if h.meter == nil {
		drawOverlayBox(screen, r, "What a move costs the wire", "o")
		putText(screen, r.x, r.y+2, r.w, "Nothing to count here: this session has no connection of its own.", styleText)
		return
	}
	drawOverlayBox(screen, r, "What a move costs the wire: over "+frontNames[h.meter.Front], "o")
	y := r.y + 1
	line := func(s string, st tcell.Style) {
		if y < r.y+r.h {
			putText(screen, r.x, y, r.w, s, st)
			y++
		}
	}
	d, moves, span, ok := h.window()
	if !ok {
		line("Counting... move, and watch each layer's bytes.", styleDim)
		return
	}
	line(fmt.Sprintf("The last %.1f s: %d moves acknowledged (per move counts the States between them too).", span.Seconds(), moves), styleDim)
	for i, l := range wire.Table(d, moves, span) {
		st := styleText
		if i == 0 {
			st = styleHeading
		}
		line(l, st)
	}
	y++
	for _, row := range d.Rows() {
		line(row.Layer+": "+row.Note, styleDim)
	}
	if h.meter.Front == wire.FrontSSH {
		y++
		for _, l := range chaffNote(h.meter.Client()) {
			line(l, styleDim)
		}
	}
}

// acked is the player's last acknowledged input, for the wire overlay's
// moves.
func acked(players []client.Session) uint32 {
	if len(players) == 0 {
		return 0
	}
	return players[0].View().LastAck
}

// chaffNote says whether the SSH client of version (its version line)
// sends keystroke-timing chaff, and how to turn it off.
func chaffNote(version string) []string {
	name, chaffs, ok := wire.OpenSSH(version)
	switch {
	case !ok:
		return []string{"OpenSSH 9.5+ sends keystroke-timing chaff (pings, 50 a second for 1 to 3 s",
			"after a key): ssh -o ObscureKeystrokeTiming=no turns it off."}
	case chaffs:
		return []string{"Your " + name + " sends keystroke-timing chaff (a ping each 20 ms",
			"for 1 to 3 s after a key): ssh -o ObscureKeystrokeTiming=no turns it off."}
	}
	return []string{"Your " + name + " sends no keystroke-timing chaff (9.5 and later do)."}
}
