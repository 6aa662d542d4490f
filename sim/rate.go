package sim

// Rate returns the server's update rate in Hz (0 = one State per
// processed input).
func (w *World) Rate() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.rate
}

// SetRate changes the server's update rate live, hz between 0 (one State
// per processed input) and server.MaxRate. At a rate above zero the next
// tick comes one new interval from now.
func (w *World) SetRate(hz int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.server.SetRate(hz)
	w.rate = hz
	if hz > 0 {
		w.nextTick = w.now + w.interval()
	}
}
