package protocol

// The area of interest: the States a player receives tell it of the others
// within AreaHalfWidth columns and AreaHalfHeight rows of its own cell (a
// player already in view stays in it up to AreaMargin cells further, so
// that one stepping back and forth on the edge does not blink in and out).
// The terminal's widest board at one column per cell is about 190x55 (a
// 200x60 terminal); its camera keeps the player within the middle third of
// the board, so the farthest cell it shows is about two thirds of the board
// away: 127 columns, 37 rows. A board larger than the area shows its
// outskirts empty of players.
const (
	AreaHalfWidth  = 128
	AreaHalfHeight = 40
	AreaMargin     = 8
	// MaxAreaPlayers bounds the players one area holds: past it, newcomers
	// to a crowded area come into view as others leave it. With the
	// recipient itself, it keeps a full picture well inside one State.
	MaxAreaPlayers = 2048
)
