package tui

import (
	"fmt"
	"strconv"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

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
	panelSmoothRow     = 7
	panelCorrRow       = 8
	panelCorrInfoRow   = 9
	panelLedgerHeadRow = 11
	panelAckRow        = 12
	panelLedgerRow     = 13 // the first row of the ledger proper
)

// ledgerMinRows is the fewest rows the ledger keeps below its heading
// when the zap tag section takes the rest.
const ledgerMinRows = 2

// toggle is one of the netcode switches in the panel.
type toggle struct {
	row   int
	label string
	on    func(v *client.View) bool
	set   func(s client.Session, on bool)
}

// The panel's switches.
var (
	predictToggle = &toggle{panelPredictRow, "prediction",
		func(v *client.View) bool { return v.Predict }, client.Session.SetPredict}
	reconcileToggle = &toggle{panelReconcileRow, "reconciliation",
		func(v *client.View) bool { return v.Reconcile }, client.Session.SetReconcile}
	interpolateToggle = &toggle{panelInterpRow, "interpolation",
		func(v *client.View) bool { return v.Interpolate }, client.Session.SetInterpolate}
	// smoothToggle slides a correction over one move time instead of
	// snapping it (a session that keeps no instruments has none).
	smoothToggle = &toggle{panelSmoothRow, "smoothing",
		func(v *client.View) bool { return v.Smooth }, setSmooth}
)

// toggles are the panel's switches, in the order they are drawn.
var toggles = []*toggle{predictToggle, reconcileToggle, interpolateToggle, smoothToggle}

// setSmooth turns smoothing of corrections on or off, if s keeps
// instruments.
func setSmooth(s client.Session, on bool) {
	if i, ok := s.(client.Instrumented); ok {
		i.SetSmooth(on)
	}
}

// checkbox draws a switch as text: "[x]" on, "[ ]" off.
func checkbox(on bool) string {
	if on {
		return "[x]"
	}
	return "[ ]"
}

// flip turns the switch over, from the session's current state.
func (t *toggle) flip(s client.Session) {
	v := s.View()
	t.set(s, !t.on(&v))
}

// Panel is the side panel of one client's view: the latency slider, the
// netcode toggles, the correction counter, the ledger of pending inputs
// (sent, not yet acknowledged by the server) and, at the bottom, the game
// of zap tag (see tagLines). It is a tview primitive: it draws into any
// rectangle at least panelWidth wide, and its mouse handler moves the
// slider and flips the toggles of the session it was made for.
type Panel struct {
	*tview.Box
	session client.Session
	view    func() *client.View
	slider  *LatencySlider
}

// NewPanel returns the panel of session s; view returns the view to draw
// (the same snapshot as the rest of the frame).
func NewPanel(s client.Session, view func() *client.View) *Panel {
	p := &Panel{Box: tview.NewBox(), session: s, view: view, slider: NewLatencySlider()}
	p.slider.SetValue(s.View().Latency)
	p.slider.SetChangedFunc(s.SetLatency)
	return p
}

// Slider returns the panel's latency slider.
func (p *Panel) Slider() *LatencySlider { return p.slider }

// Draw draws the panel: the latency slider's heading and the slider (which
// follows the view's latency unless it is being dragged), the toggles, the
// correction counter, the ledger and the zap tag section under it.
func (p *Panel) Draw(screen tcell.Screen) {
	v := p.view()
	x, y, w, h := p.GetInnerRect()
	put := func(row int, s string, st tcell.Style) int {
		return putText(screen, x, y+row, w, s, st)
	}

	n := put(panelSliderHeadRow, "Latency ", styleHeading)
	putText(screen, x+n, y+panelSliderHeadRow, w-n, "(round trip)  "+groupLabels("latency"), styleDim)
	if !p.slider.Dragging() {
		p.slider.SetValue(v.Latency)
	}
	p.slider.SetRect(x, y+panelSliderRow, w, 1)
	p.slider.Draw(screen)

	put(panelToggleHeadRow, "Netcode", styleHeading)
	for _, t := range toggles {
		n := put(t.row, checkbox(t.on(v))+" ", styleText)
		n += putText(screen, x+n, y+t.row, w-n, fmt.Sprintf("%-15s", t.label), styleText)
		putText(screen, x+n, y+t.row, w-n, "("+toggleLabel(t)+")", styleKey)
	}

	n = put(panelCorrRow, "corrections ", styleHeading)
	putText(screen, x+n, y+panelCorrRow, w-n, strconv.Itoa(v.Corrections), corrStyle(v))
	if c := v.LastCorrection; c != nil {
		// Where prediction had the avatar and where the server's word put
		// it, and why, on the row below (the panel is narrow).
		put(panelCorrInfoRow, fmt.Sprintf("last %s → %s", c.From, c.To), styleDim)
		put(panelCorrInfoRow+1, c.Reason, styleDim)
	}

	n = put(panelLedgerHeadRow, "Pending inputs ", styleHeading)
	putText(screen, x+n, y+panelLedgerHeadRow, w-n, "(sent, not acked)", styleDim)
	put(panelAckRow, fmt.Sprintf("last ack #%d   pending %d", v.LastAck, len(v.Pending)), styleText)
	rows := h - panelLedgerRow
	game := tagLines(v, w, rows-ledgerMinRows)
	for i, l := range game {
		l.draw(screen, x, y+h-len(game)+i, w)
	}
	drawLedger(screen, x, y+panelLedgerRow, w, rows-len(game), v.Pending)
}

// drawLedger draws the unacknowledged inputs into rows rows from (x, y),
// oldest first, as many as fit, then how many more there are.
func drawLedger(screen tcell.Screen, x, y, w, rows int, pending []client.PendingInput) {
	shown := len(pending)
	if shown > rows {
		shown = max(rows-1, 0)
	}
	for i := 0; i < shown; i++ {
		putText(screen, x, y+i, w, ledgerRow(pending[i]), styleText)
	}
	if shown < len(pending) && rows > 0 {
		putText(screen, x, y+shown, w, fmt.Sprintf("… and %d more", len(pending)-shown), styleDim)
	}
}

// MouseHandler moves the slider (a drag captures the mouse, so it goes on
// when the pointer leaves the track) and flips a toggle at every click.
func (p *Panel) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (consumed bool, capture tview.Primitive) {
	return p.WrapMouseHandler(func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(tview.Primitive)) (bool, tview.Primitive) {
		x, y := event.Position()
		if p.slider.Dragging() || p.slider.InRect(x, y) {
			if used, capture := p.slider.MouseHandler()(action, event, setFocus); used {
				if capture != nil {
					capture = p
				}
				return true, capture
			}
		}
		// A click soon after another is a double click to tview: it flips
		// the toggle again all the same.
		if action != tview.MouseLeftClick && action != tview.MouseLeftDoubleClick || !p.InRect(x, y) {
			return false, nil
		}
		_, top, _, _ := p.GetInnerRect()
		for _, t := range toggles {
			if y == top+t.row {
				t.flip(p.session)
				return true, nil
			}
		}
		return false, nil
	})
}

// ledgerRow writes one unacknowledged input: its number, its arrow (or
// "zap") and its age.
func ledgerRow(p client.PendingInput) string {
	what := p.Dir.Arrow()
	if p.Zap {
		what = "zap"
	}
	return fmt.Sprintf("#%-5d %-3s %7s", p.Seq, what, millis(p.Age))
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
