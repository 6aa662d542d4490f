package tui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// A widget is a control of a screen: a checkbox (a toggle), a button, a
// slider. It is a tview primitive, tview.Box embedded: a screen, or a
// panel, places it with SetRect, draws it through its controls, and hands
// it the mouse actions that fall in its rectangle (or all of them while
// it holds the mouse: a slider being dragged). The game's panel and the
// lab's panels are made of the same widgets; a key table's keys call
// the same functions.
type widget interface {
	tview.Primitive
	// width is how many columns the widget takes on a row of text (see
	// rowWriter).
	width() int
}

// controls are the widgets a screen (or a panel) drew in its last frame:
// a mouse action goes to the widget holding the mouse, else to the one
// under the pointer. A screen resets them before it draws a frame.
type controls struct {
	drawn   []tview.Primitive
	capture tview.Primitive // the widget holding the mouse: a drag goes on outside it
}

// reset forgets the widgets of the last frame.
func (c *controls) reset() { c.drawn = c.drawn[:0] }

// draw places p in the rectangle, draws it, and hands it the mouse in it
// until the next reset.
func (c *controls) draw(screen tcell.Screen, p tview.Primitive, x, y, w, h int) {
	p.SetRect(x, y, w, h)
	p.Draw(screen)
	c.drawn = append(c.drawn, p)
}

// mouse hands a mouse action to the widget holding the mouse, or to the
// one under the pointer, and keeps the one that holds it after; it
// reports whether a widget used the action.
func (c *controls) mouse(action tview.MouseAction, ev *tcell.EventMouse) bool {
	target := c.capture
	if target == nil {
		mx, my := ev.Position()
		for _, p := range c.drawn {
			if x, y, w, h := p.GetRect(); mx >= x && mx < x+w && my >= y && my < y+h {
				target = p
				break
			}
		}
	}
	if target == nil {
		return false
	}
	used, capture := target.MouseHandler()(action, ev, func(tview.Primitive) {})
	c.capture = capture
	return used
}

// clicked reports whether a mouse action is a click: tview's double click
// (the second of two within half a second) counts as one more.
func clicked(action tview.MouseAction) bool {
	return action == tview.MouseLeftClick || action == tview.MouseLeftDoubleClick
}

// checkbox is a switch drawn as "[x]" (on) or "[ ]" (off) then its label,
// then the keys that flip it (hint) in the keys' style. A click anywhere
// in its rectangle flips it.
type checkbox struct {
	*tview.Box
	label string
	hint  string
	on    func() bool
	flip  func()
	// note, if set, is drawn after the hint, as a warning: who holds the
	// switch (" teacher"), "" for nobody.
	note func() string
}

// newCheckbox returns a switch that shows on() and calls flip when
// clicked.
func newCheckbox(label, hint string, on func() bool, flip func()) *checkbox {
	return &checkbox{Box: tview.NewBox(), label: label, hint: hint, on: on, flip: flip}
}

// boxText draws a switch's state: "[x]" on, "[ ]" off.
func boxText(on bool) string {
	if on {
		return "[x]"
	}
	return "[ ]"
}

func (c *checkbox) width() int { return textWidth(boxText(false)+c.label) + textWidth(c.hint) }

// Draw draws the switch.
func (c *checkbox) Draw(screen tcell.Screen) {
	x, y, w, _ := c.GetInnerRect()
	n := putText(screen, x, y, w, boxText(c.on())+c.label, styleText)
	n += putText(screen, x+n, y, w-n, c.hint, styleKey)
	if c.note != nil {
		putText(screen, x+n, y, w-n, c.note(), styleWarn)
	}
}

// MouseHandler flips the switch at every click on it.
func (c *checkbox) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (consumed bool, capture tview.Primitive) {
	return onClick(c.Box, c.flip)
}

// onClick is the mouse handler of a widget that does do at every click
// in box, its rectangle.
func onClick(box *tview.Box, do func()) func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (consumed bool, capture tview.Primitive) {
	return box.WrapMouseHandler(func(action tview.MouseAction, event *tcell.EventMouse, _ func(tview.Primitive)) (bool, tview.Primitive) {
		if !clicked(action) || !box.InRect(event.Position()) {
			return false, nil
		}
		do()
		return true, nil
	})
}

// button is a label in brackets that does something when clicked, e.g.
// "[n step]".
type button struct {
	*tview.Box
	label string
	do    func()
}

// newButton returns a button labelled label that calls do when clicked.
func newButton(label string, do func()) *button {
	return &button{Box: tview.NewBox(), label: label, do: do}
}

func (b *button) width() int { return textWidth(b.label) }

// Draw draws the label.
func (b *button) Draw(screen tcell.Screen) {
	x, y, w, _ := b.GetInnerRect()
	putText(screen, x, y, w, b.label, styleKey)
}

// MouseHandler presses the button at every click on it.
func (b *button) MouseHandler() func(action tview.MouseAction, event *tcell.EventMouse, setFocus func(p tview.Primitive)) (consumed bool, capture tview.Primitive) {
	return onClick(b.Box, b.do)
}

// rowWriter writes text and widgets left to right on one row, never past
// end; the widgets go to controls.
type rowWriter struct {
	screen tcell.Screen
	ctl    *controls
	x, y   int
	end    int
}

// text writes plain text.
func (r *rowWriter) text(s string, st tcell.Style) {
	r.x += putText(r.screen, r.x, r.y, r.end-r.x, s, st)
}

// put draws a widget at the writer's place, as wide as it is or as the
// row has left.
func (r *rowWriter) put(w widget) {
	n := min(w.width(), r.end-r.x)
	if n <= 0 {
		return
	}
	r.ctl.draw(r.screen, w, r.x, r.y, n, 1)
	r.x += n
}
