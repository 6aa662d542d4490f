package loadgen

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/server"
)

// lockedBuffer is a log sink safe for concurrent use.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestRunOverRooms: with Rooms the players are spread over that many rooms,
// each opened by its first player and closed after its last, and every
// input is acknowledged in every room.
func TestRunOverRooms(t *testing.T) {
	t.Parallel()
	const n, rooms = 6, 3
	logs := &lockedBuffer{}
	srv, addr := startServer(t, server.Options{
		Config: server.Config{Rate: 50, MoveTime: 20 * time.Millisecond},
		Logger: log.NewWithOptions(logs, log.Options{Level: log.InfoLevel}),
	})
	s, err := Run(context.Background(), Options{Addr: addr, N: n, Rooms: rooms, Duration: time.Second, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if s.Players != n || len(s.Refused) != 0 || len(s.Dropped) != 0 {
		t.Fatalf("%d players welcomed, refused %v, dropped %v; want %d, none refused or dropped", s.Players, s.Refused, s.Dropped, n)
	}
	if s.InputsSent < n*10 || s.InputsAcked != s.InputsSent {
		t.Errorf("inputs sent %d, acknowledged %d: want every one of at least %d acknowledged", s.InputsSent, s.InputsAcked, n*10)
	}
	if st := srv.Stats(); st.InputsProcessed != s.InputsSent {
		t.Errorf("the server processed %d inputs over its rooms; the players sent %d", st.InputsProcessed, s.InputsSent)
	}
	for _, room := range []string{"room-1", "room-2", "room-3"} {
		if got := strings.Count(logs.String(), "join room="+room+" "); got != n/rooms {
			t.Errorf("%d players joined %s, want %d", got, room, n/rooms)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(logs.String(), "room closed") < rooms {
		if time.Now().After(deadline) {
			t.Fatalf("the rooms did not all close once the players left:\n%s", logs)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
