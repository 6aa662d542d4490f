package tui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"
)

// mouseTracker derives tview's mouse actions from raw tcell mouse events,
// as tview.Application does: a move when the pointer moved, a left button
// down or up when it changed, a click when it went up where it went down,
// and the wheel. The terminal reports clicks and drags only (see Run), so
// a move is always a drag.
type mouseTracker struct {
	x, y         int // where the last event was
	downX, downY int // where the left button went down
	buttons      tcell.ButtonMask
}

// wheelActions maps the wheel's buttons to their actions.
var wheelActions = []struct {
	button tcell.ButtonMask
	action tview.MouseAction
}{
	{tcell.WheelUp, tview.MouseScrollUp},
	{tcell.WheelDown, tview.MouseScrollDown},
	{tcell.WheelLeft, tview.MouseScrollLeft},
	{tcell.WheelRight, tview.MouseScrollRight},
}

// actions returns the actions of one raw event, in order.
func (m *mouseTracker) actions(ev *tcell.EventMouse) []tview.MouseAction {
	var acts []tview.MouseAction
	x, y := ev.Position()
	buttons := ev.Buttons()
	if x != m.x || y != m.y {
		acts = append(acts, tview.MouseMove)
		m.x, m.y = x, y
	}
	if (buttons^m.buttons)&tcell.Button1 != 0 {
		if buttons&tcell.Button1 != 0 {
			acts = append(acts, tview.MouseLeftDown)
			m.downX, m.downY = x, y
		} else {
			acts = append(acts, tview.MouseLeftUp)
			if x == m.downX && y == m.downY {
				acts = append(acts, tview.MouseLeftClick)
			}
		}
	}
	m.buttons = buttons
	for _, w := range wheelActions {
		if buttons&w.button != 0 {
			acts = append(acts, w.action)
		}
	}
	return acts
}
