package tui

import "gridlag/grid"

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

// layout says where each part of the screen goes for one screen size and
// one map.
type layout struct {
	w, h int // the screen

	// tooSmall is set when the board and panel do not fit; needW and
	// needH are then the smallest size that would.
	tooSmall     bool
	needW, needH int

	// The board: its top-left corner and the columns per map cell (2 when
	// there is room, which makes cells look square, else 1).
	boardX, boardY, cellW int
	// The area the board is centred in.
	areaX, areaY, areaW, areaH int

	panelX, panelY, panelH int
	statusY, helpY         int
}

// computeLayout lays out a w x h screen for map m (nil before the server's
// welcome arrives).
func computeLayout(w, h int, m *grid.Map) layout {
	mw, mh := 0, 0
	if m != nil {
		mw, mh = m.Width(), m.Height()
	}
	l := layout{w: w, h: h, cellW: 1}
	contentRows := max(mh, panelMinRows)
	l.needW = mw + boardMargin + panelWidth
	if m == nil {
		l.needW = 30 + boardMargin + panelWidth // room for "waiting for the server"
	}
	l.needH = contentRows + chromeRows
	if w < l.needW || h < l.needH {
		l.tooSmall = true
		return l
	}
	if mw*2+boardMargin+panelWidth <= w {
		l.cellW = 2
	}
	l.areaX, l.areaY = 0, 1
	l.areaW = w - panelWidth - boardMargin
	l.areaH = h - chromeRows
	l.boardX = l.areaX + (l.areaW-mw*l.cellW)/2
	l.boardY = l.areaY + (l.areaH-mh)/2
	l.panelX, l.panelY, l.panelH = w-panelWidth, 1, h-chromeRows
	l.statusY, l.helpY = h-2, h-1
	return l
}

// cell returns the screen position of map cell p.
func (l layout) cell(p grid.Pos) (x, y int) {
	return l.boardX + p.X*l.cellW, l.boardY + p.Y
}
