package link

import (
	"math"
	"time"
)

// MinRTO is the shortest retransmission timeout, Linux's: a lost message
// is sent again no sooner than this after the previous try.
const MinRTO = 200 * time.Millisecond

// MaxTries is how many times a message is sent at most: the first try and
// up to five retransmissions, each after twice the timeout of the one
// before. The last try always gets through: a real TCP stack would give up
// and close the connection after about fifteen, which a simulated link
// never does.
const MaxTries = 6

// SetLoss sets the probability p (0 to 1) that a message sent from now on
// is lost, as TCP loses a segment: it is not dropped but sent again after
// a retransmission timeout (see RTO), and that copy can be lost too, with
// the same p, each further try waiting twice as long as the one before
// (up to MaxTries). A message lost k times is delivered (2^k − 1) × RTO
// later than it would have been, and every message sent after it waits
// behind it (head-of-line blocking). Loss draws on the seeded random
// source only when p > 0, so a lossless line gives the same delays as if
// loss did not exist.
func (l *Line[T]) SetLoss(p float64) {
	if math.IsNaN(p) {
		p = 0
	}
	l.loss = min(max(p, 0), 1)
}

// Loss returns the probability that a message is lost.
func (l *Line[T]) Loss() float64 { return l.loss }

// RTO returns the retransmission timeout for messages sent now: the round
// trip plus four times the jitter, as TCP's smoothed round trip plus four
// deviations, and at least MinRTO. The line takes the round trip to be
// twice its one-way delay (a Link's, whose delay is split evenly).
func (l *Line[T]) RTO() time.Duration {
	return max(MinRTO, 2*l.delay+4*l.jitter)
}

// losses draws how many times a message is lost before a copy gets
// through.
func (l *Line[T]) losses() int {
	lost := 0
	if l.loss > 0 {
		for lost < MaxTries-1 && l.rng.Float64() < l.loss {
			lost++
		}
	}
	return lost
}

// backoff returns how much later than its own delay a message lost the
// given number of times is delivered: the first copy is sent again after
// rto, the next after 2×rto more, and so on.
func backoff(rto time.Duration, lost int) time.Duration {
	return rto * time.Duration(1<<lost-1)
}
