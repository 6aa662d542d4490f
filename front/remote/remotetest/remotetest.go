// Package remotetest is test support for the front ends' tests, SSH's and
// the web's alike: a real game server to play on, a session handler that
// echoes what its terminal does, a session that will not end for the
// tests of Close, and the terminals and maps a session's cost is measured
// on.
package remotetest

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/charmbracelet/log"
	"github.com/gdamore/tcell/v2"

	"gridlag/front/remote"
	"gridlag/grid"
	"gridlag/server"
	"gridlag/server/admit/admittest"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// Game runs a real game server of opts on 127.0.0.1:0, logging to the
// test (as "game"), closed when the test ends, and returns it with its
// address. It serves once Game returns: its goroutines have started, so
// a test counting goroutines counts them in its baseline.
func Game(t testing.TB, opts server.Options) (*server.Server, string) {
	t.Helper()
	opts.Logger = admittest.Logger(t).WithPrefix("game")
	g := server.New(opts)
	return g, admittest.Serve(t, g, server.ErrServerClosed).String()
}

// FuzzGame runs a real game server for a fuzz target of a front end and
// returns its address: at the default rate, logging to quiet (nowhere:
// the fuzzing calls the target from workers where f's log may not be
// written), and letting every session from the one address of the
// fuzzing join at once.
func FuzzGame(f *testing.F, quiet *log.Logger) string {
	f.Helper()
	g := server.New(server.Options{Logger: quiet, Hub: hub.Options{Config: world.Config{Rate: world.DefaultRate},
		JoinRate: 1 << 20, MaxPlayersPerAddr: 1 << 10}})
	return admittest.Serve(f, g, server.ErrServerClosed).String()
}

// Echo is a plumbing test's session handler: it tells seen (if not nil)
// of its player, draws line(p, width, height, keys) on the screen's top
// row, keys being the keys pressed so far (a rune as itself, another key
// by its name), and draws it again on every event; it ends at q, when
// its screen ends (nil) or on the screen's error.
func Echo(seen chan<- *remote.Player, line func(p *remote.Player, w, h int, keys string) string) remote.Handler {
	return func(ctx context.Context, p *remote.Player) error {
		if seen != nil {
			seen <- p
		}
		s := p.Screen
		if err := s.Init(); err != nil {
			return err
		}
		defer s.Fini()
		var keys strings.Builder
		for {
			w, h := s.Size()
			s.Clear()
			for i, r := range line(p, w, h, keys.String()) {
				s.SetContent(i, 0, r, nil, tcell.StyleDefault)
			}
			s.Show()
			switch ev := s.PollEvent().(type) {
			case nil:
				return nil
			case *tcell.EventResize:
				s.Sync()
			case *tcell.EventKey:
				switch {
				case ev.Key() == tcell.KeyRune && ev.Rune() == 'q':
					return nil
				case ev.Key() == tcell.KeyRune:
					keys.WriteRune(ev.Rune())
				default:
					keys.WriteString(ev.Name())
				}
			case *tcell.EventError:
				return ev
			}
		}
	}
}

// Stuck is a session that will not end until the test releases it (or
// ends), as one held by a defect: it initialises its screen, says so on
// Started and waits.
type Stuck struct {
	// Started is told once a session holds.
	Started chan struct{}
	release chan struct{}
	once    sync.Once
}

// NewStuck returns a Stuck released when the test ends at the latest.
func NewStuck(t testing.TB) *Stuck {
	s := &Stuck{Started: make(chan struct{}, 1), release: make(chan struct{})}
	t.Cleanup(s.Release)
	return s
}

// Or is a session handler that holds the sessions of the user "stuck"
// until Release and runs h for the others.
func (s *Stuck) Or(h remote.Handler) remote.Handler {
	return func(ctx context.Context, p *remote.Player) error {
		if p.User != "stuck" {
			return h(ctx, p)
		}
		p.Screen.Init()
		s.Started <- struct{}{}
		<-s.release
		p.Screen.Fini()
		return nil
	}
}

// Release lets the stuck session end.
func (s *Stuck) Release() { s.once.Do(func() { close(s.release) }) }

// StuckFront is a front end's server in a test of its Close: one honest
// session and one of the user "stuck" run on it.
type StuckFront struct {
	Close     func() error
	Hurry     func()
	Abandoned func() uint64 // the sessions Close left behind (Stats)
	// Told checks, once Close returned unhurried, that the honest
	// session was told the server stopped.
	Told func()
}

// CloseLeavesTheStuckBehind is a front end's test of Close with a session
// that will not end, unhurried then hurried (Hurry first: a second
// signal). start starts the server, logging to logger, its sessions run
// by stuck.Or(an honest handler), and opens the honest session, then the
// stuck one. Close returns (unhurried, not before the grace period,
// remote.CloseGrace), the stuck session is left behind, counted
// (Abandoned is 1) and said in one line of the log, and, unhurried, the
// honest one told. The times are reported, not bounded: a busy machine is
// slow.
func CloseLeavesTheStuckBehind(t *testing.T, start func(logger *log.Logger, stuck *Stuck) StuckFront) {
	t.Helper()
	for _, hurried := range []bool{false, true} {
		var lb admittest.Log
		stuck := NewStuck(t)
		f := start(log.New(&lb), stuck)
		<-stuck.Started
		var hurry func()
		if hurried {
			hurry = f.Hurry
		}
		admittest.CloseLeavesOneBehind(t, func() { f.Close() }, hurry, remote.CloseGrace, f.Abandoned, &lb)
		if !hurried {
			f.Told()
		}
		stuck.Release()
	}
}

// CostMap is a map a session's cost is measured on: nil is the classic.
type CostMap struct {
	Name string
	Map  *grid.Map
}

// CostMaps are the maps of the front ends' BenchmarkSessionCost: the
// classic one and a 1024x1024 one.
func CostMaps(b *testing.B) []CostMap {
	big, err := grid.Generate(1024, 1024, 1)
	if err != nil {
		b.Fatal(err)
	}
	return []CostMap{{"classic", nil}, {"map1024", big}}
}

// CostSizes are the terminals of BenchmarkSessionCost, columns and rows:
// the usual one, and one far past the largest screen, which is clamped.
var CostSizes = [][2]int{{80, 24}, {10000, 10000}}
