package front

import (
	"context"
	"net"

	"gridlag/internal/wire"
)

// CountGame makes dial (nil: a TCP connection) count the game's frames
// on m: every connection it opens to the game server, the lobby's and
// the redials' included. For a TCP player (wire.FrontTCP) the connection
// is the player's socket, whose kernel counters m reads; over SSH and the
// web it is inside the server, and the front end says which socket is the
// player's.
func CountGame(m *wire.Meter, dial func(ctx context.Context, addr string) (net.Conn, error)) func(ctx context.Context, addr string) (net.Conn, error) {
	if m == nil {
		return dial
	}
	if dial == nil {
		var d net.Dialer
		dial = func(ctx context.Context, addr string) (net.Conn, error) { return d.DialContext(ctx, "tcp", addr) }
	}
	return func(ctx context.Context, addr string) (net.Conn, error) {
		c, err := dial(ctx, addr)
		if err != nil {
			return nil, err
		}
		wc := wire.NewConn(c, &m.Game, wire.PlayerSide)
		if m.Front == wire.FrontTCP {
			m.SetSocket(c, wire.PlayerSide)
		}
		return wc, nil
	}
}
