package tcp

import (
	"context"
	"net"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/internal/notify"
	"gridlag/internal/perception"
)

// Watch is a spectator connected to a gridlag server over TCP: it runs a
// client.SpectatorDriver on the wall clock, as Conn runs a player's
// Driver, and takes no player slot. All its methods are safe for
// concurrent use.
type Watch struct {
	*runner
	d *client.SpectatorDriver
}

// ConnectSpectator opens the TCP connection to addr and says Spectate,
// and returns without waiting for the answer: View().Map is nil until the
// server's Spectating arrives. A refusal (the spectators' cap is reached)
// ends the connection with the server's Error as View().Err. Options'
// Name, Room, Teach, latency, PingInterval, ServerTimeout, Dial and Logger
// apply.
func ConnectSpectator(ctx context.Context, addr string, opts Options) (*Watch, error) {
	nc, err := opts.dial(ctx, addr)
	if err != nil {
		return nil, err
	}
	return newWatch(addr, nc, opts), nil
}

func newWatch(addr string, nc net.Conn, opts Options) *Watch {
	opts = withSeed(opts)
	d := client.NewSpectatorDriver(0, opts.Options)
	return &Watch{runner: startRunner(addr, nc, opts, d), d: d}
}

// View returns the latest view of the server.
func (w *Watch) View() client.WorldView {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.d.View(w.now())
}

// Teach sets the room's network and switches, as its teacher (a Watch of
// Options.Teach over a connection the server takes for a teacher's):
// the server applies them and says them back, and View().Teaching shows
// them then.
func (w *Watch) Teach(t client.Teaching) {
	w.with(func() { w.d.Teach(w.now(), t) })
	notify.Poke(w.wake)
}

// Follow follows student id (0: nobody), as the room's teacher (see
// Teach): the server tells the room, and View().Following and Sight show
// it then.
func (w *Watch) Follow(id grid.PlayerID) {
	w.with(func() { w.d.Follow(w.now(), id) })
	notify.Poke(w.wake)
}

// NewCode asks for a new class code, as the room's teacher (see Teach):
// the old one admits nobody more, and View().ClassCode says the new one
// once the server does.
func (w *Watch) NewCode() {
	w.with(func() { w.d.NewCode(w.now()) })
	notify.Poke(w.wake)
}

// Crowd asks, as the room's teacher (see Teach), for bots of the
// server's own in the room (0: none) and its areas of interest on or
// off: the server says what it gave in View().Crowd.
func (w *Watch) Crowd(bots int, areasOff bool) {
	w.with(func() { w.d.Crowd(w.now(), bots, areasOff) })
	notify.Poke(w.wake)
}

// Perceive starts a run of the room's perception test with settings s,
// or stops the one in progress (nil), as its teacher: the server says
// where the run is in View().Perception. Settings that fail their Check
// are not sent: the error says why.
func (w *Watch) Perceive(s *perception.Settings) error {
	var err error
	w.with(func() { err = w.d.Perceive(w.now(), s) })
	notify.Poke(w.wake)
	return err
}

// Close says Bye at once, closes the socket and waits for the
// connection's goroutines.
func (w *Watch) Close() error { return w.runner.close() }
