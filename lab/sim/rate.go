package sim

// Rate returns the server's update rate in Hz (0 = one State per
// processed input).
func (w *World) Rate() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.hub.Options().Config.Rate
}

// SetRate changes the server's update rate live, in every room, hz
// between 0 (one State per processed input) and world.MaxRate. At a rate
// above zero the next tick comes one new interval from now.
func (w *World) SetRate(hz int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.hub.SetRate(w.now, hz)
}
