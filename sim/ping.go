package sim

// Ping makes the server ping every player now (server.Core.Ping), so that
// it measures their round trips; the Pings go on the clients' links at
// once. A server adapter does it about once a second; a simulation that
// shows the server's measures does it on its own schedule.
func (w *World) Ping() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.server.Ping(w.now)
	w.route()
}
