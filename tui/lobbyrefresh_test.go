package tui

import (
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/protocol"
)

// answeringLobby is a LobbyModel whose answers the test gives by hand,
// counting the questions.
type answeringLobby struct {
	asks    int
	rooms   *protocol.Rooms // the answer that waits, if any
	changed chan struct{}
}

func (l *answeringLobby) AskRooms() { l.asks++ }

func (l *answeringLobby) TakeRooms() (*protocol.Rooms, error, bool) {
	r := l.rooms
	l.rooms = nil
	return r, nil, r != nil
}

func (l *answeringLobby) Join(string)                             {}
func (l *answeringLobby) TakeJoin() (client.Session, error, bool) { return nil, nil, false }
func (l *answeringLobby) Changed() <-chan struct{}                { return l.changed }
func (l *answeringLobby) Close()                                  {}

// handClock is a clock the test moves.
type handClock struct{ now time.Time }

func (c *handClock) Now() time.Time                       { return c.now }
func (c *handClock) After(time.Duration) <-chan time.Time { return nil }

// TestLobbyAsksAgain: the lobby asks for the rooms when it opens, then
// LobbyRefresh after each answer, never while one is awaited; the loop
// learns when from nextChange, on the lobby's clock.
func TestLobbyAsksAgain(t *testing.T) {
	scr := tcell.NewSimulationScreen("UTF-8")
	if err := scr.Init(); err != nil {
		t.Fatal(err)
	}
	defer scr.Fini()
	scr.SetSize(80, 24)
	model := &answeringLobby{changed: make(chan struct{}, 1)}
	clock := &handClock{now: time.Unix(1000, 0)}
	s := NewLobbyScreen(scr, model, Options{Clock: clock})
	if model.asks != 1 {
		t.Fatalf("%d questions at the start, want 1", model.asks)
	}
	clock.now = clock.now.Add(time.Minute) // the server is slow to answer
	s.Frame()
	if model.asks != 1 || s.nextChange() != 0 {
		t.Fatalf("awaiting the answer: %d questions, next change in %v; want 1 and none", model.asks, s.nextChange())
	}
	model.rooms = &protocol.Rooms{MaxRooms: 256, Rooms: []protocol.RoomInfo{{MaxPlayers: 1000}}}
	s.Frame()
	if got := s.nextChange(); got != LobbyRefresh {
		t.Fatalf("after the answer, next change in %v, want %v", got, LobbyRefresh)
	}
	clock.now = clock.now.Add(1500 * time.Millisecond)
	s.Frame()
	if got := s.nextChange(); model.asks != 1 || got != LobbyRefresh-1500*time.Millisecond {
		t.Fatalf("1.5 s after the answer: %d questions, next change in %v", model.asks, got)
	}
	clock.now = clock.now.Add(500 * time.Millisecond)
	s.Frame()
	if model.asks != 2 || s.nextChange() != 0 {
		t.Fatalf("2 s after the answer: %d questions, next change in %v; want 2 and none", model.asks, s.nextChange())
	}
}
