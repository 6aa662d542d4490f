package tui

import "gridlag/grid"

// The largest screen the interface can use. A player hears of the others
// within areaHalfWidth columns and areaHalfHeight rows of its cell (the
// server's area of interest: world.AreaHalfWidth and AreaHalfHeight in
// package server/world, which tui does not import; a test holds the two
// equal), and the board's camera keeps the player in its middle third
// (see follow), so a board half as large again as those half sides shows
// the farthest players the server tells of at its edges: MaxBoardWidth x
// MaxBoardHeight cells, beside the panel, with the title above and the
// status and keys' lines below. Everything else fits in it too: the
// classic map in the wide layout, the lobby, the spectator's board, the
// help. A larger terminal shows nothing more of the game, only more map
// without players: a front end that pays for every cell of a remote
// terminal (the SSH server) gives the screen no more than this.
const (
	MaxBoardWidth  = 3 * areaHalfWidth / 2
	MaxBoardHeight = 3 * areaHalfHeight / 2
	MaxWidth       = MaxBoardWidth + boardMargin + panelWidth
	MaxHeight      = 1 + MaxBoardHeight + belowRows
)

// The half sides of the area of interest the server tells a player of
// (see MaxWidth).
const (
	areaHalfWidth  = 128
	areaHalfHeight = 40
)

// Fixed sizes of the screen's parts.
const (
	// panelWidth is the width of the side panel (slider, toggles, ledger).
	panelWidth = 34
	// panelMinRows is the smallest panel that still shows two ledger rows.
	panelMinRows = panelLedgerRow + 2
	// panelWantRows is the panel that shows the zap tag section whole at
	// its most compact under two ledger rows: the heading, a line of news
	// and the scoreboard's top three and your own. A map shorter than it
	// still gets it, as high as the screen allows: the board is centred
	// beside it.
	panelWantRows = panelLedgerRow + ledgerMinRows + 2 + scoreCompactRows
	// belowRows are the rows under the board and panel: the status line
	// and the keys' reminder.
	belowRows = 2
	// boardMargin is the room between the board and the panel.
	boardMargin = 2
	// waitingWidth is the board's width before the map arrives: room for
	// "waiting for the server…".
	waitingWidth = 30
	// minBoardW and minBoardH are the smallest board a map larger than
	// the screen is seen on, through the board's camera: the classic
	// map's size, which 80x24 holds.
	minBoardW, minBoardH = 40, 22
)

// rect is a rectangle of the screen.
type rect struct{ x, y, w, h int }

// arrangement says where the parts of the single-player screen go.
type arrangement struct {
	title, board, panel, status, keys rect
}

// arrange lays out the single-player screen on a w x h screen for map m
// (nil before the server's welcome): the board beside the panel, the
// status line and the keys' reminder under them, as one block centred on
// the screen. The block is as high as the map, and at least as high as
// the panel needs to show the game (panelWantRows) where the screen has
// the room, whatever the map's height. The board takes two columns a cell when they fit (the wide
// layout), else one (the compact layout, down to 80x24). The title takes
// the top row when there is room above the block, else it heads the
// panel's column. A map larger than the screen gets a board as large as
// the screen allows, under the title, which shows it through its camera.
// ok is false when the screen is smaller than minSize.
func arrange(w, h int, m *grid.Map) (a arrangement, ok bool) {
	needW, needH := minSize(m)
	if w < needW || h < needH {
		return a, false
	}
	mw, mh := mapSize(m)
	cellW := 1
	if 2*mw+boardMargin+panelWidth <= w {
		cellW = 2
	}
	boardW := min(mw*cellW, w-boardMargin-panelWidth)
	blockW := boardW + boardMargin + panelWidth
	bodyH := max(mh, min(panelWantRows, h-1-belowRows), panelMinRows)
	top := 0
	titleOnTop := h >= 1+bodyH+belowRows
	if !titleOnTop && h-1-belowRows >= max(minBoardH, panelMinRows) {
		bodyH, titleOnTop = h-1-belowRows, true // taller than the screen: the camera shows what fits
	}
	if titleOnTop {
		top = 1
	} else {
		bodyH = max(min(mh, h-belowRows), panelMinRows+1)
	}
	x := (w - blockW) / 2
	y := top + (h-top-bodyH-belowRows)/2
	panelX := x + boardW + boardMargin
	a = arrangement{
		title:  rect{0, 0, w, 1},
		board:  rect{x, y, boardW, bodyH},
		panel:  rect{panelX, y, panelWidth, bodyH},
		status: rect{x, y + bodyH, blockW, 1},
		keys:   rect{x, y + bodyH + 1, blockW, 1},
	}
	if !titleOnTop {
		a.title = rect{panelX, y, panelWidth, 1}
		a.panel.y, a.panel.h = y+1, bodyH-1
	}
	return a, true
}

// MinScreen is the smallest terminal the game's screen fits on any map
// (minSize of a map at least minBoardW x minBoardH): the web page fits its
// font so that its terminal is at least this large.
func MinScreen() (w, h int) {
	return minBoardW + boardMargin + panelWidth, max(minBoardH, panelMinRows+1) + belowRows
}

// minSize returns the smallest screen that holds the compact layout for
// map m (nil before the server's welcome): the board, one column a cell,
// beside the panel headed by the title, then the status line and the
// keys' reminder. A map larger than minBoardW x minBoardH needs only a
// board that size: its camera shows the rest as the player walks.
func minSize(m *grid.Map) (w, h int) {
	mw, mh := mapSize(m)
	return min(mw, minBoardW) + boardMargin + panelWidth, max(min(mh, minBoardH), panelMinRows+1) + belowRows
}

// mapSize returns the size of map m in cells; without a map, room for
// the line saying why.
func mapSize(m *grid.Map) (w, h int) {
	if m == nil {
		return waitingWidth, 0
	}
	return m.Width(), m.Height()
}
