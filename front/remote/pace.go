package remote

import (
	"time"

	"gridlag/internal/limit"
)

// WindowChanges is the rate at which a session's terminal size may
// resize its screen, on every front end: each change of size costs a new
// screen (up to about 3 MB at the largest, tui.MaxWidth x tui.MaxHeight)
// and a repaint of every cell. A terminal being resized by hand reports a
// few dozen sizes a second, of which the screen needs the last: the front
// ends pass on the latest at this rate and drop the others.
var WindowChanges = limit.Rate{Burst: 4, Every: 250 * time.Millisecond}
