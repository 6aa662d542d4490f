package tui

import (
	"github.com/gdamore/tcell/v2"
	"github.com/rivo/tview"

	"gridlag/grid"
)

// Fixed sizes of the screen's parts.
const (
	// panelWidth is the width of the side panel (slider, toggles, ledger).
	panelWidth = 34
	// panelMinRows is the smallest panel that still shows two ledger rows.
	panelMinRows = panelLedgerRow + 2
	// chromeRows are the rows outside the board and panel: the title on
	// top, the status and help lines at the bottom.
	chromeRows = 3
	// boardMargin is the least room between the board and the panel.
	boardMargin = 2
)

// minSize returns the smallest screen that holds the board of map m (nil
// before the server's welcome arrives) beside the panel, with the title,
// status and help lines.
func minSize(m *grid.Map) (w, h int) {
	mw, mh := 30, 0 // without a map: room for "waiting for the server"
	if m != nil {
		mw, mh = m.Width(), m.Height()
	}
	return mw + boardMargin + panelWidth, max(mh, panelMinRows) + chromeRows
}

// screenLayout arranges the single-player screen: the title on top, the
// board (taking the room left) beside the panel, then the status line and
// the keys' reminder.
func screenLayout(title, board, panel, status, keys tview.Primitive) *tview.Flex {
	body := tview.NewFlex().
		AddItem(board, 0, 1, false).
		AddItem(nil, boardMargin, 0, false).
		AddItem(panel, panelWidth, 0, false)
	root := tview.NewFlex().SetDirection(tview.FlexRow).
		AddItem(title, 1, 0, false).
		AddItem(body, 0, 1, false).
		AddItem(status, 1, 0, false).
		AddItem(keys, 1, 0, false)
	body.SetBackgroundColor(tcell.ColorDefault)
	root.SetBackgroundColor(tcell.ColorDefault)
	return root
}
