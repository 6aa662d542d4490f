package sim

import "gridlag/server"

// LagComp reports whether the server compensates lag when it judges a
// zap.
func (w *World) LagComp() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.server.Config().LagComp
}

// SetLagComp turns the server's lag compensation on or off live.
func (w *World) SetLagComp(on bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.server.SetLagComp(on)
}

// LastZap returns how the server judged the last zap; ok is false before
// any.
func (w *World) LastZap() (z server.ZapRecord, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.server.LastZap()
}
