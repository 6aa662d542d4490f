package tui

import (
	"fmt"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
)

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

// labPanel is what a lab player's own screen shows beside its board: the
// status line, its link's controls (latency, jitter, loss preset, lag
// spike), its zap button, its toggles, the server's word on its zaps and
// its ledger of unacknowledged inputs. Every control is a widget, the
// game's panel's own (sliders drawn as steps, checkboxes, buttons); the
// keys of player i do the same.
type labPanel struct {
	i      int // 0 for Player 1
	player LabPlayer
	view   *client.View // the frame's
	// color returns the player's palette colour, as its boards draw it:
	// its ledger and the ack line take it, as its strip does.
	color func() uint8

	lag, jitter        *Slider
	preset, spike, zap *button
	toggles            []*checkbox // in the order of toggles
}

// newLabPanel returns the panel of player i, which draws view in the
// colour that color returns.
func newLabPanel(i int, player LabPlayer, view *client.View, color func() uint8) *labPanel {
	p := &labPanel{i: i, player: player, view: view, color: color}
	p.lag = newStepSlider(func() time.Duration { return player.View().Latency }, player.SetLatency)
	p.jitter = newStepSlider(func() time.Duration { return player.View().Jitter }, player.SetJitter)
	p.preset = newButton("[preset]", player.NextPreset)
	p.spike = newButton("[lag spike 1s]", player.Spike)
	p.zap = newButton("[zap]", player.Zap)
	for _, t := range toggles {
		p.toggles = append(p.toggles, t.checkbox(player, func() *client.View { return view }, t.short, ""))
	}
	return p
}

// draw draws the panel into the rectangle, its widgets through ctl.
func (p *labPanel) draw(screen tcell.Screen, ctl *controls, x, y, w, h int) {
	v := p.view
	row := func(r int) *rowWriter { return &rowWriter{screen: screen, ctl: ctl, x: x, y: y + r, end: x + w} }
	if h <= labStatusRow {
		return
	}
	putText(screen, x, y+labStatusRow, w, statusLinePlaced(v, w, ""), styleText)
	if h < labPanelRows {
		p.drawCompact(screen, ctl, x, y, w, h)
		return
	}
	p.stepper(row(labLagRow), "lag    ", p.lag, v.Latency, "lag")
	p.stepper(row(labJitterRow), "jitter ", p.jitter, v.Jitter, "jitter")

	r := row(labLossRow)
	r.text(fmt.Sprintf("loss %.1f%%  ", 100*p.player.Loss()), styleText)
	preset := "preset " + p.player.Preset()
	switch {
	case p.player.Trace() != "":
		preset = "trace " + p.player.Trace()
	case p.player.Preset() == "":
		preset = "preset own"
	}
	p.preset.label = "[" + preset + "]"
	r.put(p.preset)
	r.text(" "+p.keys("preset"), styleDim)

	r = row(labSpikeRow)
	r.put(p.spike)
	r.text(" "+p.keys("spike")+"   ", styleDim)
	r.put(p.zap)
	r.text(" "+labZapKeys[p.i], styleDim)
	switch {
	case v.Frozen:
		r.text("  FROZEN "+seconds(v.FrozenUntil-v.Now), styleFrozen)
	case v.Protected:
		r.text("  SAFE "+seconds(v.ProtectedUntil-v.Now), styleProtectedText)
	}

	r = row(labToggleRow)
	for _, c := range p.toggles {
		r.put(c)
		r.text(" ", styleText)
	}
	r.text(p.keys("toggles"), styleDim)

	for i, l := range labNews(v, w) {
		l.draw(screen, x, y+labNewsRow+i, w)
	}
	p.drawLedger(screen, x, y+labAckRow, w, h-labAckRow)
}

// drawCompact draws the panel in fewer rows than labPanelRows (two boards
// side by side on a small terminal): under the status line, the toggles,
// the server's latest word on a zap, if any, then the ledger as far as it
// fits; the link's controls stay on their keys.
func (p *labPanel) drawCompact(screen tcell.Screen, ctl *controls, x, y, w, h int) {
	if h <= 1 {
		return
	}
	r := &rowWriter{screen: screen, ctl: ctl, x: x, y: y + 1, end: x + w}
	for _, c := range p.toggles {
		r.put(c)
		r.text(" ", styleText)
	}
	r.text(p.keys("toggles"), styleDim)
	y, h = y+2, h-2
	if news := latestNews(p.view, w); len(news) > 0 && h > 0 {
		news[0].draw(screen, x, y, w)
		y, h = y+1, h-1
	}
	p.drawLedger(screen, x, y, w, h)
}

// drawLedger draws the last ack and the inputs pending, in the player's
// colour, in rows rows from (x, y).
func (p *labPanel) drawLedger(screen tcell.Screen, x, y, w, rows int) {
	if rows <= 0 {
		return
	}
	v := p.view
	st := styleText
	if c := p.color(); c != 0 {
		st = playerStyle(c, false)
	}
	putText(screen, x, y, w, fmt.Sprintf("last ack #%d   pending %d", v.LastAck, len(v.Pending)), st)
	drawLedger(screen, x, y+1, w, rows-1, v.Pending, st)
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

// stepper writes a slider's name, the slider showing value, and the keys
// that step it.
func (p *labPanel) stepper(r *rowWriter, name string, s *Slider, value time.Duration, group string) {
	r.text(name, styleText)
	s.SetValue(value)
	r.put(s)
	r.text("  "+p.keys(group), styleDim)
}

// keys returns the keys of this player's group of rows in the lab's key
// table, e.g. "- +" for Player 1's latency.
func (p labPanel) keys(group string) string {
	return tableGroupLabels(labKeyTable, labGroup(group, p.i))
}
