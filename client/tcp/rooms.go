package tcp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sync"
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

// Lobby is a server's lobby over TCP: its rooms, and a way into one, each
// call a round trip. NewAsyncLobby makes it the model of the lobby's
// screen (tui.RunLobby).
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

// LobbyCalls are a lobby's calls, each a round trip: Lobby's, or a front
// end's wrapper of them.
type LobbyCalls interface {
	// Rooms asks the server for the rooms it hosts.
	Rooms() (*protocol.Rooms, error)
	// Join connects to room as a player, without waiting for the
	// Welcome.
	Join(room string) (client.Session, error)
}

// AsyncLobby makes a lobby's calls on goroutines of its own and keeps
// their answers until the screen's loop takes them: the model of the
// lobby's screen (tui.LobbyModel), which starts no goroutine and never
// waits on the network. It is safe for concurrent use.
type AsyncLobby struct {
	calls   LobbyCalls
	changed chan struct{}

	mu       sync.Mutex
	asking   bool // a call of Rooms is under way
	joining  bool // a call of Join is under way
	rooms    *protocol.Rooms
	roomsErr error
	roomsIn  bool // the answer of Rooms waits
	session  client.Session
	joinErr  error
	joinIn   bool // the answer of Join waits
	closed   bool
}

// NewAsyncLobby returns the lobby of calls, asynchronous.
func NewAsyncLobby(calls LobbyCalls) *AsyncLobby {
	return &AsyncLobby{calls: calls, changed: make(chan struct{}, 1)}
}

// AskRooms asks for the rooms, unless a question is under way or its
// answer waits; it returns at once.
func (l *AsyncLobby) AskRooms() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.asking || l.roomsIn || l.closed {
		return
	}
	l.asking = true
	go func() {
		rooms, err := l.calls.Rooms()
		l.mu.Lock()
		l.asking = false
		l.rooms, l.roomsErr, l.roomsIn = rooms, err, !l.closed
		l.mu.Unlock()
		l.wake()
	}()
}

// TakeRooms returns the answer to AskRooms once it came, once.
func (l *AsyncLobby) TakeRooms() (rooms *protocol.Rooms, err error, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.roomsIn {
		return nil, nil, false
	}
	rooms, err = l.rooms, l.roomsErr
	l.rooms, l.roomsErr, l.roomsIn = nil, nil, false
	return rooms, err, true
}

// Join asks to join room, unless a join is under way or its answer
// waits; it returns at once. A session that comes after Close is closed.
func (l *AsyncLobby) Join(room string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.joining || l.joinIn || l.closed {
		return
	}
	l.joining = true
	go func() {
		s, err := l.calls.Join(room)
		l.mu.Lock()
		l.joining = false
		closed := l.closed
		if !closed {
			l.session, l.joinErr, l.joinIn = s, err, true
		}
		l.mu.Unlock()
		if closed && s != nil {
			s.Close()
		}
		l.wake()
	}()
}

// TakeJoin returns the answer to Join once it came, once: the session is
// the caller's from then on.
func (l *AsyncLobby) TakeJoin() (s client.Session, err error, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.joinIn {
		return nil, nil, false
	}
	s, err = l.session, l.joinErr
	l.session, l.joinErr, l.joinIn = nil, nil, false
	return s, err, true
}

// Changed receives when an answer waits.
func (l *AsyncLobby) Changed() <-chan struct{} { return l.changed }

// Close ends the lobby: a session that came and was not taken is closed,
// and so is one that comes later; no question is asked any more.
func (l *AsyncLobby) Close() {
	l.mu.Lock()
	s := l.session
	l.closed, l.session, l.joinIn = true, nil, false
	l.mu.Unlock()
	if s != nil {
		s.Close()
	}
}

// wake signals Changed.
func (l *AsyncLobby) wake() {
	select {
	case l.changed <- struct{}{}:
	default:
	}
}
