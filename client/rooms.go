package client

import (
	"context"
	"fmt"
	"time"

	"gridlag/protocol"
)

// ListRooms asks the server at addr for the rooms it hosts, for a lobby,
// and closes the connection. It gives up when ctx ends, or after
// DialTimeout if ctx has no deadline.
func ListRooms(ctx context.Context, addr string) (*protocol.Rooms, error) {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DialTimeout)
		defer cancel()
	}
	nc, err := dial(ctx, addr)
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
	m, err := protocol.NewDecoder(nc).Decode()
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
