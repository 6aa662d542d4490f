package front

import (
	"context"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/log"
	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/client/tcp"
	"gridlag/protocol"
	"gridlag/server"
	"gridlag/server/admit/admittest"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// hung is the hang guard of these tests: long past anything they wait
// for, on any machine.
const hung = 30 * time.Second

// startServer runs a game server on loopback and returns its address.
func startServer(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := server.New(server.Options{Hub: hub.Options{Config: world.Config{Rate: 20, Resume: world.DefaultResume}}, Logger: log.New(io.Discard)})
	go s.Serve(ln)
	t.Cleanup(func() { s.Close() })
	return ln.Addr().String()
}

// openRoom opens room on the server at addr with a player who stays.
func openRoom(t *testing.T, addr, room string) {
	t.Helper()
	c, err := tcp.Connect(context.Background(), addr, tcp.Options{Options: client.Options{Name: "host", Room: room}, Logger: log.New(io.Discard)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	admittest.Eventually(t, func() bool { return tcp.HasRooms(context.Background(), addr) },
		func() string { return "room " + room + " never opened" })
}

// shownScreen is a simulation screen that keeps the text of the last
// frame shown: its cells may not be read while Run draws.
type shownScreen struct {
	tcell.SimulationScreen
	mu    sync.Mutex
	shown string
}

func (s *shownScreen) Init() error {
	err := s.SimulationScreen.Init()
	s.SetSize(120, 40)
	return err
}

func (s *shownScreen) Show() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.SimulationScreen.Show()
	cells, w, h := s.GetContents()
	var b strings.Builder
	for y := range h {
		for x := range w {
			if r := cells[y*w+x].Runes; len(r) > 0 {
				b.WriteRune(r[0])
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteByte('\n')
	}
	s.shown = b.String()
}

// EventQ and StopQ are the simulation's event queue, which tui's loop
// reads itself.
func (s *shownScreen) EventQ() chan tcell.Event {
	return s.SimulationScreen.(interface{ EventQ() chan tcell.Event }).EventQ()
}

func (s *shownScreen) StopQ() <-chan struct{} {
	return s.SimulationScreen.(interface{ StopQ() <-chan struct{} }).StopQ()
}

func (s *shownScreen) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.shown
}

// run is Run of a mode in the background.
type run struct {
	t      *testing.T
	screen *shownScreen
	done   chan error
}

func start(t *testing.T, addr string, m Mode, o Options) *run {
	t.Helper()
	o.Addr = addr
	o.Client.Name = "ada"
	o.Client.Logger = log.New(io.Discard)
	o.Screen.Title = "gridlag — front test"
	r := &run{t: t, screen: &shownScreen{SimulationScreen: tcell.NewSimulationScreen("UTF-8")}, done: make(chan error, 1)}
	go func() { r.done <- Run(context.Background(), r.screen, m, o) }()
	return r
}

func (r *run) waitFor(subs ...string) string {
	r.t.Helper()
	var (
		s          string
		all, ended bool
		err        error
	)
	admittest.Eventually(r.t, func() bool {
		s = r.screen.text()
		all = true
		for _, sub := range subs {
			all = all && strings.Contains(s, sub)
		}
		if !all {
			select {
			case err = <-r.done:
				ended = true
			default:
			}
		}
		return all || ended
	}, func() string { return fmt.Sprintf("the screen never showed %q:\n%s", subs, s) })
	if ended {
		r.t.Fatalf("Run returned (%v) before the screen showed %q:\n%s", err, subs, s)
	}
	return s
}

// quit presses q and waits for Run to return.
func (r *run) quit() error {
	r.t.Helper()
	r.screen.InjectKey(tcell.KeyRune, 'q', tcell.ModNone)
	select {
	case err := <-r.done:
		return err
	case <-time.After(hung):
		r.t.Fatal("Run did not return after q")
		return nil
	}
}

// Play with no room plays in the default room of a server that has no
// other; with one, it shows the lobby. A room's Play plays in that room
// and a Lobby shows the lobby whatever the server has; Watch watches, its
// title saying so; each ends on q.
func TestRunDecidesOnce(t *testing.T) {
	addr := startServer(t)
	var joined []bool
	var mu sync.Mutex
	onJoin := func(_ client.Session, resumed bool) {
		mu.Lock()
		joined = append(joined, resumed)
		mu.Unlock()
	}
	r := start(t, addr, Mode{}, Options{Joined: onJoin})
	r.waitFor("you (", "gridlag — front test", "playing as ada")
	if err := r.quit(); err != nil {
		t.Errorf("q: %v", err)
	}
	r = start(t, addr, Mode{Kind: Lobby}, Options{})
	r.waitFor("(default)", "1 rooms open")
	r.quit()

	openRoom(t, addr, "kitchen")
	r = start(t, addr, Mode{}, Options{})
	r.waitFor("(default)", "kitchen")
	r.quit()
	r = start(t, addr, Mode{Room: "attic"}, Options{Joined: onJoin})
	r.waitFor("you (", "gridlag — front test — room attic")
	r.quit()
	r = start(t, addr, Mode{Kind: Watch, Room: "attic"}, Options{WatchTitle: "watching"})
	r.waitFor("watching — room attic")
	r.quit()
	mu.Lock()
	defer mu.Unlock()
	if len(joined) != 2 || joined[0] || joined[1] {
		t.Errorf("Joined told of %v, want two sessions, neither resumed", joined)
	}
}

// A dropped avatar's token brings it back in its room, without the lobby
// a server with rooms would show; End gets the session and its room.
func TestRunResumes(t *testing.T) {
	addr := startServer(t)
	openRoom(t, addr, "kitchen")
	first, err := tcp.Connect(context.Background(), addr, tcp.Options{Options: client.Options{Name: "ada", Room: "attic"}, Logger: log.New(io.Discard)})
	if err != nil {
		t.Fatal(err)
	}
	var tok protocol.Token
	admittest.Eventually(t, func() bool { tok, _ = first.Resumable(); return !tok.IsZero() },
		func() string { return "no resume token" })
	first.Abandon()
	ended := make(chan string, 1)
	r := start(t, addr, Mode{}, Options{Resume: tok, ResumeRoom: "attic",
		End: func(s client.Session, room string, err error) error {
			s.Close()
			ended <- room
			return err
		}})
	r.waitFor("you (", "— room attic", "playing as ada")
	r.quit()
	if room := <-ended; room != "attic" {
		t.Errorf("End got room %q, want attic", room)
	}
}
