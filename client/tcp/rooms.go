package tcp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"gridlag/client"
	"gridlag/internal/notify"
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
// waits on the network. One call of each kind is under way at a time. It
// is safe for concurrent use.
type AsyncLobby struct {
	calls   LobbyCalls
	changed chan struct{}

	mu     sync.Mutex
	rooms  answer[*protocol.Rooms]
	join   answer[client.Session]
	closed bool
}

// answer is what a kind of call brought, until it is taken.
type answer[T any] struct {
	asked bool // a call is under way
	in    bool // its answer waits: value, or err
	value T
	err   error
}

// NewAsyncLobby returns the lobby of calls, asynchronous.
func NewAsyncLobby(calls LobbyCalls) *AsyncLobby {
	return &AsyncLobby{calls: calls, changed: make(chan struct{}, 1)}
}

// AskRooms asks for the rooms, unless a question is under way or its
// answer waits; it returns at once.
func (l *AsyncLobby) AskRooms() { ask(l, &l.rooms, l.calls.Rooms, nil) }

// TakeRooms returns the answer to AskRooms once it came, once.
func (l *AsyncLobby) TakeRooms() (rooms *protocol.Rooms, err error, ok bool) {
	return take(l, &l.rooms)
}

// Join asks to join room, unless a join is under way or its answer
// waits; it returns at once. A session that comes after Close is closed.
func (l *AsyncLobby) Join(room string) {
	ask(l, &l.join, func() (client.Session, error) { return l.calls.Join(room) }, client.Session.Close)
}

// TakeJoin returns the answer to Join once it came, once: the session is
// the caller's from then on.
func (l *AsyncLobby) TakeJoin() (s client.Session, err error, ok bool) { return take(l, &l.join) }

// Changed receives when an answer waits.
func (l *AsyncLobby) Changed() <-chan struct{} { return l.changed }

// Close ends the lobby: a session that came and was not taken is closed,
// and so is one that comes later; no question is asked any more.
func (l *AsyncLobby) Close() {
	l.mu.Lock()
	s, ok := l.join.value, l.join.in
	l.closed, l.join = true, answer[client.Session]{asked: l.join.asked}
	l.mu.Unlock()
	if ok && s != nil {
		s.Close()
	}
}

// ask makes call on a goroutine, unless a call of its kind (a) is under
// way or its answer waits, and keeps the answer in a; an answer that
// comes after Close is dropped, with drop if it is not nil.
func ask[T any](l *AsyncLobby, a *answer[T], call func() (T, error), drop func(T) error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if a.asked || a.in || l.closed {
		return
	}
	a.asked = true
	go func() {
		value, err := call()
		l.mu.Lock()
		closed := l.closed
		a.asked = false
		if !closed {
			a.in, a.value, a.err = true, value, err
		}
		l.mu.Unlock()
		if closed && err == nil && drop != nil {
			drop(value)
		}
		notify.Poke(l.changed) // wake the screen
	}()
}

// take returns the answer in a once it came, once.
func take[T any](l *AsyncLobby, a *answer[T]) (value T, err error, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !a.in {
		return value, nil, false
	}
	value, err = a.value, a.err
	*a = answer[T]{}
	return value, err, true
}
