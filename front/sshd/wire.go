package sshd

import (
	"net"

	"github.com/gliderlabs/ssh"

	"gridlag/internal/wire"
)

// meterKey is the context key of a connection's counters (wire.Meter).
type meterKey struct{}

// countConn counts what connection c carries on a meter of its own,
// reachable from its sessions (meterOf): the bytes on the connection
// (SSH's packets: framed, padded, encrypted, authenticated) and its
// socket's kernel counters; each session counts its terminal's traffic
// on it too (the channel's payload), and the game client the game's
// frames.
func countConn(ctx ssh.Context, c net.Conn) net.Conn {
	m := wire.NewMeter(wire.FrontSSH)
	raw := c
	if tc, ok := c.(*trackedConn); ok {
		raw = tc.Conn
	}
	m.SetSocket(raw, wire.ServerSide)
	ctx.SetValue(meterKey{}, m)
	return wire.NewConn(c, &m.Conn, wire.ServerSide)
}

// meterOf is the counters of the session's connection, nil if it has
// none.
func meterOf(sess ssh.Session) *wire.Meter {
	m, _ := sess.Context().Value(meterKey{}).(*wire.Meter)
	return m
}
