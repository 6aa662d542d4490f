package tcp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"time"

	"gridlag/client"
	"gridlag/protocol"
)

// ListRooms asks the server at addr for the rooms it hosts, for a lobby,
// and closes the connection. It gives up when ctx ends, or after
// DialTimeout if ctx has no deadline.
func ListRooms(ctx context.Context, addr string) (*protocol.Rooms, error) {
	return Options{}.listRooms(ctx, addr)
}

// listRooms is ListRooms over a connection opened by o's Dial.
func (o Options) listRooms(ctx context.Context, addr string) (*protocol.Rooms, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DialTimeout)
		defer cancel()
	}
	nc, err := o.dial(ctx, addr)
	if err != nil {
		return nil, err
	}
	defer nc.Close()
	if deadline, ok := ctx.Deadline(); ok {
		nc.SetDeadline(deadline)
	}
	stop := context.AfterFunc(ctx, func() { nc.SetDeadline(time.Now()) })
	defer stop()
	if err := protocol.NewEncoder(nc).Encode(&protocol.ListRooms{Version: protocol.Version}); err != nil {
		return nil, fmt.Errorf("client: list rooms of %s: %w", addr, err)
	}
	// The first bytes say whether a gridlag server answers at all.
	var (
		sniff sniffer
		head  []byte
		buf   = make([]byte, 256)
	)
	for !sniff.done {
		n, err := nc.Read(buf)
		head = append(head, buf[:n]...)
		if foreign := sniff.take(addr, buf[:n]); foreign != nil {
			return nil, foreign
		}
		if err != nil && !sniff.done {
			return nil, fmt.Errorf("client: list rooms of %s: %w", addr, err)
		}
	}
	m, err := protocol.NewDecoder(io.MultiReader(bytes.NewReader(head), nc)).Decode()
	if err != nil {
		return nil, fmt.Errorf("client: list rooms of %s: %w", addr, err)
	}
	switch v := m.(type) {
	case *protocol.Rooms:
		return v, nil
	case *protocol.Error:
		return nil, v
	}
	return nil, fmt.Errorf("client: list rooms of %s: got %v, want Rooms", addr, m.Type())
}

// Lobby is a server's lobby over TCP: its rooms, and a way into one. It
// is what tui.RunLobby needs.
type Lobby struct {
	Ctx     context.Context // ends the calls; nil = context.Background()
	Addr    string          // the game server, host:port
	Options Options         // the player's options and Dial; Join sets Room
}

// Rooms asks the server for its rooms (ListRooms).
func (l Lobby) Rooms() (*protocol.Rooms, error) { return l.Options.listRooms(l.ctx(), l.Addr) }

// Join connects to room as a player, without waiting for the Welcome
// (Connect).
func (l Lobby) Join(room string) (client.Session, error) {
	opts := l.Options
	opts.Room = room
	return Connect(l.ctx(), l.Addr, opts)
}

func (l Lobby) ctx() context.Context {
	if l.Ctx == nil {
		return context.Background()
	}
	return l.Ctx
}

// RoomsAsk is how long HasRooms waits for the server's answer.
const RoomsAsk = 2 * time.Second

// HasRooms reports whether the server at addr hosts rooms besides its
// default one, so that a player who named no room is shown the lobby. A
// server that does not answer within RoomsAsk, or predates rooms, has
// none: the player plays in its default room.
func HasRooms(ctx context.Context, addr string) bool {
	return Lobby{Ctx: ctx, Addr: addr}.HasRooms()
}

// HasRooms is the package's HasRooms for the lobby's server, asked over
// a connection its Options' Dial opens.
func (l Lobby) HasRooms() bool {
	ctx, cancel := context.WithTimeout(l.ctx(), RoomsAsk)
	defer cancel()
	list, err := l.Options.listRooms(ctx, l.Addr)
	return err == nil && len(list.Rooms) > 1
}
