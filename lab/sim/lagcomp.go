package sim

import "gridlag/server/world"

// LagComp reports whether the server compensates lag when it judges a
// zap.
func (w *World) LagComp() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.hub.Options().Config.LagComp
}

// SetLagComp turns the server's lag compensation on or off live, in every
// room.
func (w *World) SetLagComp(on bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.hub.SetLagComp(on)
}

// LastZap returns how the server's default room judged the last zap; ok
// is false before any.
func (w *World) LastZap() (z world.ZapRecord, ok bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.Server().LastZap()
}
