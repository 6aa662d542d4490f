package tui_test

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/client/tcp"
	"gridlag/lab/sim"
	"gridlag/protocol"
	"gridlag/server/world"
	"gridlag/tui"
)

// fakeLobby lists fixed rooms and joins a simulated world, remembering
// which room was asked for.
type fakeLobby struct {
	world *sim.World
	mu    sync.Mutex
	rooms *protocol.Rooms
	asked []string
	hold  chan struct{}    // if not nil, Join waits for it
	late  chan *sim.Client // if not nil, Join sends the session it returns
}

func (f *fakeLobby) Rooms() (*protocol.Rooms, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.rooms, nil
}

func (f *fakeLobby) Join(room string) (client.Session, error) {
	if f.hold != nil {
		<-f.hold
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, room)
	if room == "full" {
		return nil, errors.New("server full: 32 of 32 players")
	}
	me := f.world.Join("alice", client.Options{})
	if f.late != nil {
		f.late <- me
	}
	return me, nil
}

func (f *fakeLobby) joined() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.asked...)
}

// startLobby runs RunLobby on a simulated terminal in the background,
// over the calls of lobby made asynchronous as the front ends make
// them.
func startLobby(t *testing.T, lobby tcp.LobbyCalls, stop chan struct{}) *running {
	t.Helper()
	return startApp(t, "RunLobby", func(scr tcell.Screen, clock tui.Clock) error {
		return tui.RunLobby(scr, tcp.NewAsyncLobby(lobby), tui.Options{Title: "gridlag — lobby test", Stop: stop, Clock: clock})
	})
}

func TestLobbyListsRoomsAndJoinsOne(t *testing.T) {
	lobby := &fakeLobby{world: sim.New(world.Config{Rate: 20}), rooms: &protocol.Rooms{MaxRooms: 256, Rooms: []protocol.RoomInfo{
		{Players: 3, MaxPlayers: 1000, Round: 2, LeftMS: 83_000},
		{Name: "full", Players: 32, MaxPlayers: 32, Round: 1, LeftMS: 5_000},
		{Name: "kitchen", Players: 1, MaxPlayers: 32, Spectators: 2, Round: 4, LeftMS: 179_000},
	}}}
	stop := make(chan struct{})
	r := startLobby(t, lobby, stop)
	r.waitFor("(default)           3/1000    0      2   1:23")
	r.waitFor("kitchen             1/32      2      4   2:59")
	r.waitFor("3 rooms open, at most 256")
	// A refusal stays in the lobby and says why.
	r.screen.InjectKey(tcell.KeyDown, 0, tcell.ModNone)
	r.screen.InjectKey(tcell.KeyEnter, 0, tcell.ModNone)
	r.waitFor("server full: 32 of 32 players")
	r.screen.InjectKey(tcell.KeyDown, 0, tcell.ModNone)
	r.screen.InjectKey(tcell.KeyEnter, 0, tcell.ModNone)
	// The game's screen takes over.
	r.waitFor("you (10,10)")
	if got := lobby.joined(); len(got) != 2 || got[1] != "kitchen" {
		t.Fatalf("rooms joined %q, want full then kitchen", got)
	}
	r.screen.InjectKey(tcell.KeyRight, 0, tcell.ModNone)
	r.waitFor("you (11,10)")
	close(stop)
	if err := r.result(); err != nil {
		t.Fatalf("RunLobby: %v", err)
	}
	if !r.finalised() {
		t.Error("the screen was not finalised")
	}
}

func TestLobbyNamesANewRoom(t *testing.T) {
	lobby := &fakeLobby{world: sim.New(world.Config{Rate: 20}), rooms: &protocol.Rooms{MaxRooms: 256, Rooms: []protocol.RoomInfo{{MaxPlayers: 1000}}}}
	stop := make(chan struct{})
	defer close(stop)
	r := startLobby(t, lobby, stop)
	r.waitFor("1 rooms open")
	r.screen.InjectKey(tcell.KeyRune, 'n', tcell.ModNone)
	r.waitFor("+ new room: _")
	r.screen.InjectKey(tcell.KeyEnter, 0, tcell.ModNone)
	r.waitFor("room name: ")
	for _, ch := range "attic" {
		r.screen.InjectKey(tcell.KeyRune, ch, tcell.ModNone)
	}
	r.waitFor("+ new room: attic_")
	r.screen.InjectKey(tcell.KeyEnter, 0, tcell.ModNone)
	r.waitFor("you (10,10)")
	if got := lobby.joined(); len(got) != 1 || got[0] != "attic" {
		t.Fatalf("rooms joined %q, want attic", got)
	}
}

// A room joined after the user quit the lobby is left at once: its
// session is closed, not left playing with nobody at the keys.
func TestLobbyClosesALateSession(t *testing.T) {
	lobby := &fakeLobby{world: sim.New(world.Config{Rate: 20}), hold: make(chan struct{}), late: make(chan *sim.Client, 1),
		rooms: &protocol.Rooms{MaxRooms: 256, Rooms: []protocol.RoomInfo{{MaxPlayers: 1000}}}}
	r := startLobby(t, lobby, nil)
	r.waitFor("1 rooms open")
	r.screen.InjectKey(tcell.KeyEnter, 0, tcell.ModNone)
	r.waitFor("joining (default)…")
	r.screen.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
	if err := r.result(); err != nil {
		t.Fatalf("RunLobby: %v", err)
	}
	close(lobby.hold)
	deadline := time.After(10 * time.Second)
	var me *sim.Client
	select {
	case me = <-lobby.late:
	case <-deadline:
		t.Fatal("Join never answered")
	}
	select {
	case <-me.Done():
	case <-deadline:
		t.Fatal("the session joined after quitting was not closed")
	}
}

// TestLobbySaysTheListIsCut: a server with more rooms than a list frame
// carries sends the busiest and their total; the lobby says so.
func TestLobbySaysTheListIsCut(t *testing.T) {
	lobby := &fakeLobby{world: sim.New(world.Config{Rate: 20}), rooms: &protocol.Rooms{MaxRooms: 1024, Total: 1001, Rooms: []protocol.RoomInfo{
		{Players: 3, MaxPlayers: 1000, Round: 2, LeftMS: 83_000},
		{Name: "kitchen", Players: 1, MaxPlayers: 32, Round: 4, LeftMS: 179_000},
	}}}
	stop := make(chan struct{})
	r := startLobby(t, lobby, stop)
	r.waitFor("the 2 busiest of 1001 rooms open, at most 1024")
	close(stop)
	if err := r.result(); err != nil {
		t.Fatalf("RunLobby: %v", err)
	}
}

// TestLobbyKeysAndHelp: at 80x24 the lobby's help shows every key of its
// table, those of a new room's name included; a name keeps its capitals,
// Backspace rubs out, Esc goes back to the list, and q quits there (in a
// name, q is a letter).
func TestLobbyKeysAndHelp(t *testing.T) {
	model := tcp.NewAsyncLobby(&fakeLobby{world: sim.New(world.Config{Rate: 20}), rooms: &protocol.Rooms{MaxRooms: 256, Rooms: []protocol.RoomInfo{{MaxPlayers: 1000}}}})
	defer model.Close()
	r := simTerm{t, newScreen(t, 80, 24)}
	s := tui.NewLobbyScreen(r.screen, model, tui.Options{})
	select {
	case <-model.Changed():
	case <-time.After(time.Minute): // a guard against a hang, not a bound
		t.Fatal("the rooms never came")
	}
	key := func(k tcell.Key, ch rune) {
		s.HandleKey(tcell.NewEventKey(k, ch, tcell.ModNone))
		s.Frame()
	}
	s.Frame()
	r.mustShow("1 rooms open", "? help")
	key(tcell.KeyRune, '?')
	shown := strings.Join(strings.Fields(r.text()), " ")
	for _, line := range tui.LobbyKeyHelp() {
		if !strings.Contains(shown, strings.Join(strings.Fields(line), " ")) {
			t.Errorf("at 80x24 the lobby's help does not show %q:\n%s", line, r.text())
		}
	}
	key(tcell.KeyEscape, 0)
	r.mustNotShow("gridlag lobby: keys")
	key(tcell.KeyRune, 'n')
	for _, ch := range "Atticq" {
		key(tcell.KeyRune, ch)
	}
	key(tcell.KeyBackspace2, 0)
	r.mustShow("+ new room: Attic_")
	key(tcell.KeyEscape, 0)
	r.mustNotShow("Attic_")
	if s.QuitAsked() {
		t.Fatal("q typed in a name quit the lobby")
	}
	key(tcell.KeyRune, 'q')
	if !s.QuitAsked() {
		t.Fatal("q in the list did not quit")
	}
}
