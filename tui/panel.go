package tui

import (
	"fmt"
	"strconv"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
)

// Rows of the side panel, counted from its top.
const (
	panelSliderHeadRow = 0
	panelSliderRow     = 1
	panelToggleHeadRow = 3
	panelPredictRow    = 4
	panelReconcileRow  = 5
	panelInterpRow     = 6
	panelCorrRow       = 8
	panelCorrInfoRow   = 9
	panelLedgerHeadRow = 11
	panelAckRow        = 12
	panelLedgerRow     = 13 // the first row of the ledger proper
)

// toggle is one of the netcode switches in the panel.
type toggle struct {
	row   int
	key   rune
	label string
	on    func(v *client.View) bool
}

// toggles are the panel's checkboxes, in the order they are drawn.
var toggles = []toggle{
	{panelPredictRow, 'p', "prediction", func(v *client.View) bool { return v.Predict }},
	{panelReconcileRow, 'r', "reconciliation", func(v *client.View) bool { return v.Reconcile }},
	{panelInterpRow, 'i', "interpolation", func(v *client.View) bool { return v.Interpolate }},
}

// drawPanel draws the side panel: the latency slider's heading (the slider
// draws itself), the toggles, the correction counter and the ledger of
// inputs waiting for the server.
func drawPanel(screen tcell.Screen, l layout, v *client.View) {
	x, y, w := l.panelX, l.panelY, panelWidth
	put := func(row int, s string, st tcell.Style) int {
		return putText(screen, x, y+row, w, s, st)
	}

	n := put(panelSliderHeadRow, "Latency ", styleHeading)
	putText(screen, x+n, y+panelSliderHeadRow, w-n, "(round trip)  - + [ ]", styleDim)

	put(panelToggleHeadRow, "Netcode", styleHeading)
	for _, t := range toggles {
		box := "[ ] "
		if t.on(v) {
			box = "[x] "
		}
		n := put(t.row, box, styleText)
		n += putText(screen, x+n, y+t.row, w-n, fmt.Sprintf("%-15s", t.label), styleText)
		putText(screen, x+n, y+t.row, w-n, "("+string(t.key)+")", styleKey)
	}

	n = put(panelCorrRow, "corrections ", styleHeading)
	putText(screen, x+n, y+panelCorrRow, w-n, strconv.Itoa(v.Corrections), corrStyle(v))
	if c := v.LastCorrection; c != nil {
		// Where prediction had the avatar and where the server's word put
		// it, and why, on the row below (the panel is narrow).
		put(panelCorrInfoRow, fmt.Sprintf("last %s → %s", c.From, c.To), styleDim)
		put(panelCorrInfoRow+1, c.Reason, styleDim)
	}

	put(panelLedgerHeadRow, "Waiting for the server", styleHeading)
	put(panelAckRow, fmt.Sprintf("last ack #%d   pending %d", v.LastAck, len(v.Pending)), styleText)
	rows := l.panelH - panelLedgerRow
	shown := len(v.Pending)
	if shown > rows {
		shown = rows - 1
	}
	for i := 0; i < shown; i++ {
		p := v.Pending[i]
		put(panelLedgerRow+i, ledgerRow(p), styleText)
	}
	if shown < len(v.Pending) {
		put(panelLedgerRow+shown, fmt.Sprintf("… and %d more", len(v.Pending)-shown), styleDim)
	}
}

// ledgerRow writes one unacknowledged input: its number, arrow and age.
func ledgerRow(p client.PendingInput) string {
	return fmt.Sprintf("#%-5d %s %7s", p.Seq, p.Dir.Arrow(), millis(p.Age))
}

// corrStyle highlights the correction counter while the board marks one.
func corrStyle(v *client.View) tcell.Style {
	if correctionVisible(v) {
		return styleCorrection
	}
	return styleText
}

// millis writes d in whole milliseconds, e.g. "250ms".
func millis(d time.Duration) string {
	return strconv.FormatInt(d.Round(time.Millisecond).Milliseconds(), 10) + "ms"
}
