package world

// The area of interest: the States a player receives tell it of every
// other player within AreaHalfWidth columns and AreaHalfHeight rows of its
// own cell. The terminal's widest board at one column per cell is about
// 190x55 (a 200x60 terminal); its camera keeps the player within the
// middle third of the board, so the farthest cell it shows is about two
// thirds of the board away: 127 columns, 37 rows. A board larger than the
// area shows its outskirts empty of players.
//
// The server keeps the map in blocks of AreaGrainX by AreaGrainY cells
// and an area is a rectangle of blocks, which moves once its player has
// walked AreaMargin cells beyond what it needs: a player in view stays in
// it until at least AreaMargin cells further (one stepping back and forth
// on the edge does not blink in and out), and nobody is told of beyond
// AreaReachX columns or AreaReachY rows.
const (
	AreaHalfWidth  = 128
	AreaHalfHeight = 40
	AreaMargin     = 8
	AreaGrainX     = 16
	AreaGrainY     = 8
	AreaReachX     = AreaHalfWidth + 2*AreaMargin + AreaGrainX - 1
	AreaReachY     = AreaHalfHeight + 2*AreaMargin + AreaGrainY - 1
	// MaxAreaPlayers bounds the players one area holds: in a crowd the
	// area shrinks, block by block, down to the player's own block (which
	// holds fewer). With the recipient itself, it keeps a full picture
	// well inside one State.
	MaxAreaPlayers = 2048
)

// SetAreas turns the areas of interest on or off from the next State on:
// off, each client's area grows to the whole map (at most MaxAreaPlayers),
// on, it shrinks back, each with the Joins and the players gone out of
// view that a walk across an area's edge would give.
func (c *Core) SetAreas(on bool) {
	c.cfg.AreasOff = !on
	for i := range c.indexes {
		c.indexes[i].whole = !on
	}
}
