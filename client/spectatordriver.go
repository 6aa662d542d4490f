package client

import (
	"time"

	"gridlag/grid"
	"gridlag/internal/perception"
)

// SpectatorDriver runs a Spectator over a link of encoded frames, as a
// Driver runs a Core: the TCP spectator (package client/tcp) runs one on
// the wall clock. It is not safe for concurrent use.
type SpectatorDriver struct {
	pipe[*Spectator]
}

// NewSpectatorDriver returns a driver whose spectator says Spectate at
// time now. The link takes opts.Latency, opts.Jitter, opts.Loss and
// opts.Seed as they are.
func NewSpectatorDriver(now time.Duration, opts Options) *SpectatorDriver {
	return &SpectatorDriver{newPipe(now, NewSpectator(now, opts), opts)}
}

// View returns the spectator's view of the server at time now.
func (d *SpectatorDriver) View(now time.Duration) WorldView { return d.m.View(now) }

// Teach sets the room's Conditions at time now (see Spectator.Teach).
func (d *SpectatorDriver) Teach(now time.Duration, t Teaching) {
	d.m.Teach(t)
	d.flush(now)
}

// Perceive starts or stops a run of the room's perception test at time
// now (see Spectator.Perceive).
func (d *SpectatorDriver) Perceive(now time.Duration, s *perception.Settings) error {
	err := d.m.Perceive(s)
	d.flush(now)
	return err
}

// Crowd asks for bots in the room and its areas of interest on or off at
// time now (see Spectator.Crowd).
func (d *SpectatorDriver) Crowd(now time.Duration, bots int, areasOff bool) {
	d.m.Crowd(bots, areasOff)
	d.flush(now)
}

// Follow follows student id at time now (see Spectator.Follow).
func (d *SpectatorDriver) Follow(now time.Duration, id grid.PlayerID) {
	d.m.Follow(id)
	d.flush(now)
}

// NewCode asks for a new class code at now, as a teacher does (see
// Spectator.NewCode).
func (d *SpectatorDriver) NewCode(now time.Duration) {
	d.m.NewCode()
	d.flush(now)
}

// Reconnect does nothing: a spectator that lost its connection has closed
// (it never reconnects; see Spectator.Dropped).
func (d *SpectatorDriver) Reconnect(now time.Duration) {}
