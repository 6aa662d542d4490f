package sim

import "time"

// Next returns the time of the next thing due in the world: a message
// reaching the server or a client, the server's update tick, or a client's
// timer (a held press, a ping). ok is false when nothing is scheduled.
func (w *World) Next() (at time.Duration, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.next()
}

// Step moves the virtual clock to exactly the next thing due (see Next)
// and does everything due at that moment, and nothing later. It returns
// the new time; ok is false, and nothing happens, when nothing is
// scheduled.
func (w *World) Step() (at time.Duration, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	at, ok = w.next()
	if ok {
		w.step(at)
	}
	return at, ok
}
