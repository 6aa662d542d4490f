package wire

import (
	"net"
	"sync/atomic"
)

// Flow is what went through one layer: bytes each way, and the units the
// layer counts in (frames, messages, segments, cells), each way.
type Flow struct {
	Up, Down       int64 // bytes toward the server, toward the player
	UpOps, DownOps int64 // units toward the server, toward the player
}

// Sub is f minus g, field by field: what went through between two
// readings.
func (f Flow) Sub(g Flow) Flow {
	return Flow{Up: f.Up - g.Up, Down: f.Down - g.Down, UpOps: f.UpOps - g.UpOps, DownOps: f.DownOps - g.DownOps}
}

// Add is f plus g, field by field.
func (f Flow) Add(g Flow) Flow {
	return Flow{Up: f.Up + g.Up, Down: f.Down + g.Down, UpOps: f.UpOps + g.UpOps, DownOps: f.DownOps + g.DownOps}
}

// Bytes is both ways' bytes.
func (f Flow) Bytes() int64 { return f.Up + f.Down }

// Counter counts a Flow; it is safe for concurrent use, and its zero
// value counts from nothing.
type Counter struct {
	up, down, upOps, downOps atomic.Int64
}

// AddUp counts n bytes toward the server, in one unit.
func (c *Counter) AddUp(n int) {
	if c == nil || n <= 0 {
		return
	}
	c.up.Add(int64(n))
	c.upOps.Add(1)
}

// AddDown counts n bytes toward the player, in one unit.
func (c *Counter) AddDown(n int) {
	if c == nil || n <= 0 {
		return
	}
	c.down.Add(int64(n))
	c.downOps.Add(1)
}

// Flow reads the counter.
func (c *Counter) Flow() Flow {
	if c == nil {
		return Flow{}
	}
	return Flow{Up: c.up.Load(), Down: c.down.Load(), UpOps: c.upOps.Load(), DownOps: c.downOps.Load()}
}

// Conn is a net.Conn whose reads and writes are counted on a Counter:
// on the server's side of a connection (ServerSide) what it reads goes
// up and what it writes goes down; on the player's side, the other way
// round. Its units are the calls of Read and Write that moved bytes.
type Conn struct {
	net.Conn
	c      *Counter
	server bool
}

// ServerSide and PlayerSide say which end of a connection a Conn is.
const (
	ServerSide = true
	PlayerSide = false
)

// NewConn counts c's bytes on ctr (a new Counter if nil); side is
// ServerSide or PlayerSide.
func NewConn(c net.Conn, ctr *Counter, side bool) *Conn {
	if ctr == nil {
		ctr = new(Counter)
	}
	return &Conn{Conn: c, c: ctr, server: side}
}

// Counter is the counter the connection counts on.
func (c *Conn) Counter() *Counter { return c.c }

// NetConn is the connection counted (as crypto/tls names it), for
// ReadTCP.
func (c *Conn) NetConn() net.Conn { return c.Conn }

func (c *Conn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if c.server {
		c.c.AddUp(n)
	} else {
		c.c.AddDown(n)
	}
	return n, err
}

func (c *Conn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	if c.server {
		c.c.AddDown(n)
	} else {
		c.c.AddUp(n)
	}
	return n, err
}
