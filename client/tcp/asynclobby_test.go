package tcp_test

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"gridlag/client"
	"gridlag/client/tcp"
	"gridlag/protocol"
)

// heldCalls are a lobby's calls that answer when the test lets them.
type heldCalls struct {
	release chan struct{} // each call waits for a value
	asked   atomic.Int32  // calls of Rooms
	session *closeSession // what Join returns; nil for a refusal
}

func (c *heldCalls) Rooms() (*protocol.Rooms, error) {
	c.asked.Add(1)
	<-c.release
	return &protocol.Rooms{MaxRooms: 7}, nil
}

func (c *heldCalls) Join(room string) (client.Session, error) {
	<-c.release
	if c.session == nil {
		return nil, errors.New("server full")
	}
	return c.session, nil
}

// closeSession is a session that says when it is closed.
type closeSession struct {
	client.Session
	closed chan struct{}
}

func (s *closeSession) Close() error {
	close(s.closed)
	return nil
}

// waitChanged waits for the lobby's signal.
func waitChanged(t *testing.T, l *tcp.AsyncLobby) {
	t.Helper()
	select {
	case <-l.Changed():
	case <-time.After(time.Minute): // a guard against a hang, not a bound
		t.Fatal("no answer came")
	}
}

// TestAsyncLobbyAnswersOnce: AskRooms and Join return at once; an answer
// waits until it is taken, once; a question while one is under way is
// not asked again.
func TestAsyncLobbyAnswersOnce(t *testing.T) {
	calls := &heldCalls{release: make(chan struct{})}
	l := tcp.NewAsyncLobby(calls)
	defer l.Close()
	l.AskRooms()
	l.AskRooms()
	if _, _, ok := l.TakeRooms(); ok {
		t.Fatal("an answer before the server's")
	}
	calls.release <- struct{}{}
	waitChanged(t, l)
	rooms, err, ok := l.TakeRooms()
	if !ok || err != nil || rooms.MaxRooms != 7 {
		t.Fatalf("TakeRooms: %v, %v, %v", rooms, err, ok)
	}
	if _, _, ok := l.TakeRooms(); ok {
		t.Fatal("the answer was taken twice")
	}
	if n := calls.asked.Load(); n != 1 {
		t.Fatalf("Rooms called %d times for two questions, one under way", n)
	}
	l.Join("full")
	calls.release <- struct{}{}
	waitChanged(t, l)
	if s, err, ok := l.TakeJoin(); !ok || s != nil || err == nil {
		t.Fatalf("TakeJoin: %v, %v, %v; want the refusal", s, err, ok)
	}
}

// TestAsyncLobbyClosesSessions: a session that came and was not taken is
// closed with the lobby, and so is one that comes after.
func TestAsyncLobbyClosesSessions(t *testing.T) {
	for _, late := range []bool{false, true} {
		calls := &heldCalls{release: make(chan struct{}), session: &closeSession{closed: make(chan struct{})}}
		l := tcp.NewAsyncLobby(calls)
		l.Join("kitchen")
		if !late {
			calls.release <- struct{}{}
			waitChanged(t, l)
		}
		l.Close()
		if late {
			calls.release <- struct{}{}
		}
		select {
		case <-calls.session.closed:
		case <-time.After(time.Minute): // a guard against a hang, not a bound
			t.Fatalf("late %v: the session was not closed with the lobby", late)
		}
		if _, _, ok := l.TakeJoin(); ok {
			t.Fatalf("late %v: a session taken after Close", late)
		}
	}
}
