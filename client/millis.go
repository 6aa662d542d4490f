package client

import (
	"strconv"
	"time"
)

// Millis writes a span of time as every screen and timeline of gridlag
// shows one: whole milliseconds, rounded down as the wire carries them
// (a zap's rewind, a tag's age), with the unit and no space, "266ms". So
// the server's figure and the one a client read off the wire agree.
func Millis(d time.Duration) string { return strconv.FormatInt(d.Milliseconds(), 10) + "ms" }
