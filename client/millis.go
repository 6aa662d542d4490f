package client

import (
	"strconv"
	"time"
)

// Millis writes a span of time as every screen and timeline of gridlag
// shows one: whole milliseconds, rounded to the nearest as the server
// rounds what it sends in milliseconds (a zap's rewind, a tag's age), with
// the unit and no space, "267ms". So the server's figure and the one a
// client read off the wire agree.
func Millis(d time.Duration) string {
	return strconv.FormatInt(d.Round(time.Millisecond).Milliseconds(), 10) + "ms"
}
