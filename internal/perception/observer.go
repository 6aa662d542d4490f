package perception

import (
	"math/rand/v2"
	"time"
)

// Observer is a model of a student who takes the test: it feels the
// round trip it measured, give or take a noise, and answers "laggy" when
// what it feels exceeds its threshold. Bots answer with it, so that a
// test knows what the thresholds measured must be.
type Observer struct {
	Threshold time.Duration
	// Noise is the standard deviation of what the observer feels around
	// the round trip it measured (0: none).
	Noise time.Duration
	rng   *rand.Rand
}

// NewObserver returns an observer of the given threshold and noise, its
// noise drawn from a generator seeded with seed.
func NewObserver(threshold, noise time.Duration, seed uint64) *Observer {
	return &Observer{Threshold: threshold, Noise: noise, rng: rand.New(rand.NewPCG(seed, 0x5eed))}
}

// Judge answers a round whose round trip the observer measured as rtt.
func (o *Observer) Judge(rtt time.Duration) Answer {
	felt := rtt
	if o.Noise > 0 {
		felt += time.Duration(o.rng.NormFloat64() * float64(o.Noise))
	}
	if felt > o.Threshold {
		return Laggy
	}
	return Fine
}
