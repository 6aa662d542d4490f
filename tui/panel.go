package tui

import (
	"fmt"
	"strconv"
	"time"

	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"gridlag/client"
	"gridlag/protocol"
)

// Rows of the side panel, counted from its top.
const (
	panelSliderHeadRow = 0
	panelSliderRow     = 1
	panelTeacherRow    = 2 // what the room's teacher added, if it has one
	panelToggleHeadRow = 3
	panelPredictRow    = 4 // the first of the toggles, a row each (panelToggles): smoothing on 7
	panelInterpRow     = 6 // the last of the netcode toggles
	panelCorrRow       = 8
	panelCorrInfoRow   = 9
	panelLedgerHeadRow = 11
	panelAckRow        = 12
	panelLedgerRow     = 13 // the first row of the ledger proper
)

// ledgerMinRows is the fewest rows the ledger keeps below its heading
// when the zap tag section takes the rest.
const ledgerMinRows = 2

// toggle is one of the netcode switches of a player's client. The game's
// panel and the lab's panels draw each as a checkbox (see checkbox), the
// key tables flip them.
type toggle struct {
	name  string // as the game's panel names it: "prediction"
	short string // as the lab's narrower panels name it: "pred"
	on    func(v *client.View) bool
	set   func(s client.Session, on bool)
	// hold is how a teacher holds it (see heldBy); nil for a switch no
	// teacher holds.
	hold func(t *client.Teaching) protocol.Hold
}

// The switches.
var (
	predictToggle = &toggle{"prediction", "pred",
		func(v *client.View) bool { return v.Predict }, client.Session.SetPredict,
		func(t *client.Teaching) protocol.Hold { return t.Predict }}
	reconcileToggle = &toggle{"reconciliation", "recon",
		func(v *client.View) bool { return v.Reconcile }, client.Session.SetReconcile,
		func(t *client.Teaching) protocol.Hold { return t.Reconcile }}
	interpolateToggle = &toggle{"interpolation", "interp",
		func(v *client.View) bool { return v.Interpolate }, client.Session.SetInterpolate,
		func(t *client.Teaching) protocol.Hold { return t.Interpolate }}
	// smoothToggle slides a correction over one move time instead of
	// snapping it (a session that keeps no instruments has none; no
	// teacher holds it). The game's panel draws it under the netcode
	// toggles; the key tables flip it for every player of the screen
	// (smoothBinding).
	smoothToggle = &toggle{"smoothing", "smooth",
		func(v *client.View) bool { return v.Smooth }, setSmooth, nil}
)

// toggles are the netcode switches, in the order the panels draw them
// (each player's of the lab's, on one row).
var toggles = []*toggle{predictToggle, reconcileToggle, interpolateToggle}

// panelToggles are the game panel's switches, a row each from
// panelPredictRow: the netcode's and smoothing.
var panelToggles = []*toggle{predictToggle, reconcileToggle, interpolateToggle, smoothToggle}

// setSmooth turns smoothing of corrections on or off, if s keeps
// instruments.
func setSmooth(s client.Session, on bool) {
	if i, ok := s.(client.Instrumented); ok {
		i.SetSmooth(on)
	}
}

// flip turns the switch over, from the session's current state.
func (t *toggle) flip(s client.Session) {
	v := s.View()
	t.set(s, !t.on(&v))
}

// checkbox returns the switch of session s as a widget, showing it as
// view (the frame's) has it.
func (t *toggle) checkbox(s client.Session, view func() *client.View, label, hint string) *checkbox {
	return newCheckbox(label, hint, func() bool { return t.on(view()) }, func() { t.flip(s) })
}

// heldBy says why flipping the switch in view v changes nothing, or ""
// if it changes it: the room's teacher holds it ("the teacher turned
// prediction off"), or holds the switch it would turn over with it.
func (t *toggle) heldBy(v *client.View) string {
	tt := v.Teaching
	if tt == nil || t.hold == nil {
		return ""
	}
	if h := t.hold(tt); h != protocol.HoldNone {
		return "the teacher turned " + t.name + " " + holdWord(h)
	}
	switch {
	case t == predictToggle && v.Predict && tt.Reconcile == protocol.HoldOn:
		return "the teacher turned reconciliation on, which needs prediction"
	case t == reconcileToggle && !v.Reconcile && tt.Predict == protocol.HoldOff:
		return "the teacher turned prediction off, which reconciliation needs"
	}
	return ""
}

// holdWord is "on" or "off" for a switch held so.
func holdWord(h protocol.Hold) string {
	if h == protocol.HoldOn {
		return "on"
	}
	return "off"
}

// Panel is the side panel of one client's view: the latency slider, the
// netcode toggles, the correction counter, the ledger of pending inputs
// (sent, not yet acknowledged by the server) and, at the bottom, the game
// of zap tag (see tagLines). It is a tview primitive: it draws into any
// rectangle at least panelWidth wide, and hands the mouse to its widgets
// (the slider, the toggles' checkboxes), which change the session it was
// made for.
type Panel struct {
	*tview.Box
	view     func() *client.View
	slider   *Slider
	toggles  []*checkbox // in the order of panelToggles, a row each
	controls controls
	// said, if set, is told why a click on a switch changed nothing (see
	// toggle.heldBy); flash, if set, returns why a switch last did not
	// change while the screen says it, else "".
	said  func(string)
	flash func() string
	// names, when set, are the room's marks the panel's scoreboard shares
	// with the board; nil: it makes its own from the view (own).
	names *marks
	own   marks
}

// NewPanel returns the panel of session s; view returns the view to draw
// (the same snapshot as the rest of the frame).
func NewPanel(s client.Session, view func() *client.View) *Panel {
	p := &Panel{Box: tview.NewBox(), view: view, slider: NewSlider()}
	p.slider.SetValue(s.View().Latency)
	p.slider.SetChangedFunc(s.SetLatency)
	for _, t := range panelToggles {
		c := newCheckbox(" "+fmt.Sprintf("%-15s", t.name), "("+toggleLabel(t)+")", func() bool { return t.on(view()) }, func() {
			if why := t.heldBy(view()); why != "" && p.said != nil {
				p.said(why)
			}
			t.flip(s)
		})
		c.note = func() string {
			if t.heldBy(view()) != "" {
				return " teacher"
			}
			return ""
		}
		p.toggles = append(p.toggles, c)
	}
	return p
}

// Slider returns the panel's latency slider.
func (p *Panel) Slider() *Slider { return p.slider }

// Draw draws the panel: the latency slider's heading and the slider (which
// follows the view's latency unless it is being dragged), the toggles, the
// correction counter, the ledger and the zap tag section under it.
func (p *Panel) Draw(screen tcell.Screen) {
	v := p.view()
	x, y, w, h := p.GetInnerRect()
	put := func(row int, s string, st tcell.Style) int {
		return putText(screen, x, y+row, w, s, st)
	}
	p.controls.reset()

	n := put(panelSliderHeadRow, "Latency ", styleHeading)
	putText(screen, x+n, y+panelSliderHeadRow, w-n, "(round trip)  "+groupLabels("latency"), styleDim)
	if !p.slider.Dragging() {
		p.slider.SetValue(v.Latency)
	}
	p.controls.draw(screen, p.slider, x, y+panelSliderRow, w, 1)
	switch t := v.Teaching; {
	case p.flash != nil && p.flash() != "":
		put(panelTeacherRow, p.flash(), styleWarn)
	case t != nil:
		put(panelTeacherRow, teacherNetwork(t), styleWarn)
	}

	put(panelToggleHeadRow, "Netcode", styleHeading)
	for i, c := range p.toggles {
		p.controls.draw(screen, c, x, y+panelPredictRow+i, w, 1)
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
	names := p.names
	if names == nil {
		p.own.takeView(v)
		names = &p.own
	}
	game := tagLines(v, w, rows-ledgerMinRows, names)
	for i, l := range game {
		l.draw(screen, x, y+h-len(game)+i, w)
	}
	drawLedger(screen, x, y+panelLedgerRow, w, rows-len(game), v.Pending, styleText)
}

// drawLedger draws the unacknowledged inputs into rows rows from (x, y),
// oldest first, as many as fit, then how many more there are.
func drawLedger(screen tcell.Screen, x, y, w, rows int, pending []client.PendingInput, st tcell.Style) {
	shown := len(pending)
	if shown > rows {
		shown = max(rows-1, 0)
	}
	for i := 0; i < shown; i++ {
		putText(screen, x, y+i, w, ledgerRow(pending[i]), st)
	}
	if shown < len(pending) && rows > 0 {
		putText(screen, x, y+shown, w, fmt.Sprintf("… and %d more", len(pending)-shown), styleDim)
	}
}

// MouseHandler hands the mouse to the panel's widgets: a click on a
// toggle's row flips it, the slider jumps, slides (holding the mouse,
// through the panel, while it is dragged) and steps with the wheel.
func (p *Panel) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (consumed bool, capture tview.Primitive) {
	return p.WrapMouseHandler(func(action tview.MouseAction, event *tcell.EventMouse, _ func(tview.Primitive)) (bool, tview.Primitive) {
		used := p.controls.mouse(action, event)
		if p.controls.capture != nil {
			return used, p
		}
		return used, nil
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

// millis writes d as every screen does (client.Millis), e.g. "250ms".
func millis(d time.Duration) string {
	return client.Millis(d)
}
