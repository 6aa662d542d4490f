package client

import (
	"testing"
	"time"

	"gridlag/protocol"
)

// TestInterpolationDelayShrinksUnderNoise: a delay left two frames above
// one update interval and a frame (a latency step that overshot, on a
// real machine whose states arrive a millisecond or two apart from
// their schedule) comes back down within 5 s: a state with a frame to
// spare is on time, even if not two frames. The states come every 50 ms
// with 0 to 2 ms of noise.
func TestInterpolationDelayShrinksUnderNoise(t *testing.T) {
	var ip interpolator
	ip.reset(&protocol.Welcome{UpdateRate: 20}, nil, 0)
	if ip.delay != ip.minDelay() {
		t.Fatalf("starts at %v, want %v", ip.delay, ip.minDelay())
	}
	const trip = 150 * time.Millisecond
	send := func(i int) {
		at := time.Duration(i) * 50 * time.Millisecond
		noise := time.Duration(i*7%3) * time.Millisecond
		ip.add(at+trip+noise, &protocol.State{TimeNS: uint64(at)}, 0)
	}
	for i := range 20 {
		send(i)
	}
	ip.delay += 2 * InterpStep     // as an overshoot leaves it
	for i := 20; i < 20+100; i++ { // 5 s
		send(i)
	}
	if ip.delay != ip.minDelay() {
		t.Fatalf("5 s later the delay is %v, want it back at %v", ip.delay, ip.minDelay())
	}
}
