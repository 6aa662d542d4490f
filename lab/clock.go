package lab

import "time"

// Clock is virtual time that follows a wall clock times a speed, and stands
// still while paused. The wall clock is injected, so that tests move it by
// hand. A Clock only says what time it is; the Lab brings the world there.
type Clock struct {
	wall   func() time.Time
	speed  Speed
	paused bool
	base   time.Time     // the wall time when at was set
	at     time.Duration // the virtual time at base
}

// NewClock returns a running clock at virtual time at, following wall at
// the given speed.
func NewClock(wall func() time.Time, at time.Duration, speed Speed) *Clock {
	return &Clock{wall: wall, speed: speed, base: wall(), at: at}
}

// Now returns the virtual time: the time set last, plus the wall time
// since then divided by the speed's divisor, unless paused.
func (c *Clock) Now() time.Duration {
	if c.paused {
		return c.at
	}
	return c.at + c.wall().Sub(c.base)/time.Duration(c.speed.divisor())
}

// Set moves the virtual time to at, from this wall moment on.
func (c *Clock) Set(at time.Duration) { c.at, c.base = at, c.wall() }

// Speed returns the speed.
func (c *Clock) Speed() Speed { return c.speed }

// SetSpeed changes the speed from this wall moment on; the virtual time
// does not jump.
func (c *Clock) SetSpeed(s Speed) {
	c.Set(c.Now())
	c.speed = s
}

// Paused reports whether the clock stands still.
func (c *Clock) Paused() bool { return c.paused }

// Pause stops the virtual time where it is.
func (c *Clock) Pause() {
	c.Set(c.Now())
	c.paused = true
}

// Resume lets the virtual time run again from where it stopped: the wall
// time spent paused is not made up.
func (c *Clock) Resume() {
	if c.paused {
		c.paused = false
		c.Set(c.at)
	}
}
