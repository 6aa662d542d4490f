package tui

import (
	"fmt"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
)

// labStep is the step of the lab's latency and jitter controls.
const labStep = FineStep

// Rows of a lab player's panel, under its board.
const (
	labStatusRow = iota // you (x,y)  server (x,y) ...
	labLagRow           // lag [-] 250ms [+]
	labJitterRow        // jitter [-] 0ms [+]
	labLossRow          // loss and preset
	labSpikeRow         // the lag spike and zap buttons, FROZEN
	labToggleRow        // [x]pred [x]recon [x]interp
	labNewsRow          // the server's word on the zaps (see labNews)
	labNews2Row         // its second row
	labAckRow           // last ack #N  pending N
	labLedgerRow        // the first row of the ledger
)

// labPanelRows is the smallest lab panel: every control and one ledger
// row.
const labPanelRows = labLedgerRow + 1

// labPanel draws what a lab player's own screen shows beside its board:
// the status line, its link's controls (latency, jitter, loss preset, lag
// spike), its zap button, its toggles, the server's word on its zaps and
// its ledger of unacknowledged inputs. Every control is a button; the
// keys of player i do the same.
type labPanel struct {
	i      int // 0 for Player 1
	player LabPlayer
	view   *client.View
}

// draw draws the panel into the rectangle, recording its buttons in hs.
func (p labPanel) draw(screen tcell.Screen, hs *hotspots, x, y, w, h int) {
	v := p.view
	row := func(r int) *rowWriter { return &rowWriter{screen: screen, hs: hs, x: x, y: y + r, end: x + w} }
	if h <= labStatusRow {
		return
	}
	putText(screen, x, y+labStatusRow, w, statusLine(v, w), styleText)
	if h <= labToggleRow {
		return
	}
	p.stepper(row(labLagRow), "lag    ", v.Latency, "lag", p.player.SetLatency)
	p.stepper(row(labJitterRow), "jitter ", v.Jitter, "jitter", p.player.SetJitter)

	r := row(labLossRow)
	r.text(fmt.Sprintf("loss %.1f%%  ", 100*p.player.Loss()), styleText)
	preset := p.player.Preset()
	if preset == "" {
		preset = "own"
	}
	r.button("[preset "+preset+"]", styleKey, p.player.NextPreset)
	r.text(" "+p.keys("preset"), styleDim)

	r = row(labSpikeRow)
	r.button("[lag spike 1s]", styleKey, p.player.Spike)
	r.text(" "+p.keys("spike")+"   ", styleDim)
	r.button("[zap]", styleKey, p.player.Zap)
	r.text(" "+labZapKeys[p.i], styleDim)
	switch {
	case v.Frozen:
		r.text("  FROZEN "+seconds(v.FrozenUntil-v.Now), styleFrozen)
	case v.Protected:
		r.text("  SAFE "+seconds(v.ProtectedUntil-v.Now), styleProtectedText)
	}

	r = row(labToggleRow)
	for _, t := range labToggles {
		r.button(checkbox(t.toggle.on(v))+t.short, styleText, func() { t.toggle.flip(p.player) })
		r.text(" ", styleText)
	}
	r.text(p.keys("toggles"), styleDim)

	for i, l := range labNews(v, w) {
		l.draw(screen, x, y+labNewsRow+i, w)
	}
	putText(screen, x, y+labAckRow, w, fmt.Sprintf("last ack #%d   pending %d", v.LastAck, len(v.Pending)), styleText)
	drawLedger(screen, x, y+labLedgerRow, w, h-labLedgerRow, v.Pending)
}

// labNews returns the server's word on the player's last zap and on the
// last time it was tagged, in the panel's two rows: both if they fit,
// else the latest.
func labNews(v *client.View, w int) []panelLine {
	if news := newsLines(v, w); len(news) <= labAckRow-labNewsRow {
		return news
	}
	return latestNews(v, w)
}

// labToggles are the toggles of a lab player's panel, with their short
// names (three fit on one row).
var labToggles = []struct {
	toggle *toggle
	short  string
}{{predictToggle, "pred"}, {reconcileToggle, "recon"}, {interpolateToggle, "interp"}}

// stepper writes a value with buttons that step it by labStep, and the
// keys that do the same.
func (p labPanel) stepper(r *rowWriter, name string, value time.Duration, group string, set func(time.Duration)) {
	r.text(name, styleText)
	r.button("[-]", styleKey, func() { set(clampLatency(value - labStep)) })
	r.text(fmt.Sprintf(" %6s ", millis(value)), styleText)
	r.button("[+]", styleKey, func() { set(clampLatency(value + labStep)) })
	r.text("  "+p.keys(group), styleDim)
}

// keys returns the keys of this player's group of rows in the lab's key
// table, e.g. "- +" for Player 1's latency.
func (p labPanel) keys(group string) string {
	return tableGroupLabels(labKeyTable, labGroup(group, p.i))
}
