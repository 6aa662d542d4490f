package link

import "time"

// MaxRTT is the largest injected round-trip latency the game offers: the
// latency slider's range and the -latency flag's limit.
const MaxRTT = 1000 * time.Millisecond

// Link is a two-way connection with an injected round-trip latency: half of
// it on the way up (client to server), half on the way down. Each direction
// adds its own jitter per message. The way up keeps the spacing of what is
// sent (see Line.KeepSpacing): a player's inputs never reach the server
// faster than the player sent them, so the server's speed limit never
// refuses an honest player, whatever the jitter or a change of latency.
type Link[Up, Down any] struct {
	Up   *Line[Up]
	Down *Line[Down]
}

// New returns a link with the given round-trip latency and per-message
// jitter. seed drives the jitter of both directions.
func New[Up, Down any](rtt, jitter time.Duration, seed int64) *Link[Up, Down] {
	l := &Link[Up, Down]{
		Up:   NewLine[Up](0, 0, seed),
		Down: NewLine[Down](0, 0, seed^0x5DEECE66D),
	}
	l.Up.KeepSpacing(true)
	l.Set(rtt, jitter)
	return l
}

// Set changes the round-trip latency and the jitter for messages sent from
// now on: rtt/2 each way (the odd nanosecond goes up).
func (l *Link[Up, Down]) Set(rtt, jitter time.Duration) {
	rtt = max(rtt, 0)
	l.Up.SetDelay(rtt-rtt/2, jitter)
	l.Down.SetDelay(rtt/2, jitter)
}

// RTT returns the injected round-trip latency: the delays of the two
// ways together.
func (l *Link[Up, Down]) RTT() time.Duration { return l.Up.Delay() + l.Down.Delay() }

// Jitter returns the injected jitter per message: the mean of the two
// ways' (a trace may give them each their own).
func (l *Link[Up, Down]) Jitter() time.Duration { return (l.Up.Jitter() + l.Down.Jitter()) / 2 }

// SetLoss sets the probability that a message sent from now on is lost, in
// either direction, and retransmitted as TCP does (see Line.SetLoss). The
// retransmission timeout is the round trip plus four times the jitter, at
// least MinRTO.
func (l *Link[Up, Down]) SetLoss(p float64) {
	l.Up.SetLoss(p)
	l.Down.SetLoss(p)
}

// Loss returns the probability that a message is lost, in either
// direction: the mean of the two ways' (a trace may give them each their
// own).
func (l *Link[Up, Down]) Loss() float64 { return (l.Up.Loss() + l.Down.Loss()) / 2 }

// Stall makes a lag spike both ways: nothing is delivered after now and
// before now+d, and the backlog is released at now+d (see Line.Stall).
func (l *Link[Up, Down]) Stall(now, d time.Duration) {
	l.Up.Stall(now, d)
	l.Down.Stall(now, d)
}

// Next returns the earliest delivery time on either line.
func (l *Link[Up, Down]) Next() (time.Duration, bool) {
	a, okA := l.Up.Next()
	b, okB := l.Down.Next()
	switch {
	case okA && okB:
		return min(a, b), true
	case okA:
		return a, true
	}
	return b, okB
}
