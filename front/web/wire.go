package web

import (
	"context"
	"net"
	"net/http"

	"gridlag/internal/wire"
)

// countConn counts what connection c carries on a meter of its own: the
// bytes on it (HTTP, then the WebSocket's frames) and its socket's
// kernel counters. A WebSocket's session on it (meterOf) counts its
// messages' payload and its terminal's traffic there too, and the game
// client the game's frames.
func countConn(c net.Conn) (net.Conn, *wire.Meter) {
	m := wire.NewMeter(wire.FrontWeb)
	m.SetSocket(c, wire.ServerSide)
	return wire.NewConn(c, &m.Conn, wire.ServerSide), m
}

// meterKey is the context key of a request's connection's counters.
type meterKey struct{}

// withMeter makes a connection's counters reachable from its requests
// (http.Server.ConnContext).
func withMeter(ctx context.Context, c net.Conn) context.Context {
	if cc, ok := c.(*countedConn); ok && cc.meter != nil {
		return context.WithValue(ctx, meterKey{}, cc.meter)
	}
	return ctx
}

// meterOf is the counters of r's connection, nil if it has none.
func meterOf(r *http.Request) *wire.Meter {
	m, _ := r.Context().Value(meterKey{}).(*wire.Meter)
	return m
}
