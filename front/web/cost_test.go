package web

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/log"
	"github.com/coder/websocket"

	"gridlag/front/remote/remotetest"
	"gridlag/front/sshd"
	"gridlag/server"
	"gridlag/server/admit/admittest"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// What a session on a huge terminal costs, on the web and over SSH, as
// sshd's BenchmarkSessionCost measures it: the live heap (after two
// collections) the process holds per session once the session shows
// the game, here with the help open too (the largest thing it draws).
// The process holds the clients as well as the servers.

// liveHeap is the heap held by live objects after two collections, as
// the second one marked them: unlike the heap in use (what sshd's
// benchmark reads), it leaves out what the sessions allocate while it is
// read (their frames' garbage, a few MB a second for 32 sessions).
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(live)
	return live[0].Value.Uint64()
}

// processCPU is the CPU time the process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// quietLogger discards the log: a measurement's own lines would cost
// what it measures (a test's log is kept in memory until it ends).
func quietLogger() *log.Logger { return log.New(io.Discard) }

// watcher is a session's output, dropped as it comes (a huge terminal's
// screen is never kept), watched for one text at a time.
type watcher struct {
	mu    sync.Mutex
	want  []byte
	found chan struct{}
	tail  []byte // the last bytes, for a text cut across two writes
}

func (w *watcher) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.want != nil {
		buf := append(w.tail, p...)
		if bytes.Contains(buf, w.want) {
			w.want = nil
			close(w.found)
		}
		w.tail = append(w.tail[:0], buf[max(0, len(buf)-64):]...)
	}
	return len(p), nil
}

// expect watches for text from now on; the function returned waits for
// it.
func (w *watcher) expect(text string) (wait func(tb testing.TB)) {
	w.mu.Lock()
	w.want, w.found, w.tail = []byte(text), make(chan struct{}), nil
	found := w.found
	w.mu.Unlock()
	return func(tb testing.TB) {
		tb.Helper()
		select {
		case <-found:
		case <-time.After(waitLong):
			tb.Fatalf("the session never showed %q", text)
		}
	}
}

// rawSession is a session on a terminal whose output is only watched.
type rawSession struct {
	out  *watcher
	send func(keys string)
	// stopReading makes the client read nothing more (a web session's:
	// its pings unanswered too).
	stopReading func()
}

// rawWebSession opens a web session from local as a cols x rows
// terminal, identity id.
func rawWebSession(tb testing.TB, s *Server, local string, id, cols, rows int) rawSession {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	c, _, err := dialer{from: local}.dial(ctx, s)
	if err != nil {
		tb.Fatalf("dial: %v", err)
	}
	tb.Cleanup(func() { c.CloseNow() })
	c.SetReadLimit(1 << 24)
	b, _ := json.Marshal(hello{Name: "mob", ID: testID(id), Path: "/", Cols: cols, Rows: rows})
	if err := c.Write(ctx, websocket.MessageText, b); err != nil {
		tb.Fatal(err)
	}
	stop := make(chan struct{})
	r := rawSession{out: &watcher{}, send: func(keys string) { c.Write(context.Background(), websocket.MessageBinary, []byte(keys)) },
		stopReading: sync.OnceFunc(func() { close(stop) })}
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			typ, data, err := c.Read(context.Background())
			if err != nil {
				return
			}
			if typ == websocket.MessageBinary {
				r.out.Write(data)
			}
		}
	}()
	return r
}

// rawSSHSession opens an SSH session from local on an xterm-256color of
// cols x rows.
func rawSSHSession(tb testing.TB, s *sshd.Server, local string, cols, rows int) rawSession {
	tb.Helper()
	r := rawSession{out: &watcher{}}
	r.send = sshTerminal(tb, admittest.DialFrom(tb, s.Addr().String(), local), "mob", cols, rows, r.out)
	return r
}

// quietGame runs a game server of cfg, logging nothing, on 127.0.0.1:0.
func quietGame(tb testing.TB, cfg world.Config) (*server.Server, string) {
	tb.Helper()
	cfg.Rate, cfg.Resume, cfg.MaxPlayers = world.DefaultRate, world.DefaultResume, 1000
	g := server.New(server.Options{Hub: hub.Options{Config: cfg}, Logger: quietLogger()})
	return g, admittest.Serve(tb, g, server.ErrServerClosed).String()
}

// quietSSH runs the SSH front end on a game server of cfg, both logging
// nothing, its players counted as their own addresses (as gridlag -ssh
// runs them); closing it closes both.
func quietSSH(tb testing.TB, cfg world.Config) (ss *sshd.Server, close func()) {
	tb.Helper()
	g, addr := quietGame(tb, cfg)
	ss, err := sshd.New(sshd.Options{GameAddr: addr, Dial: g.Dial, HostKeyPath: filepath.Join(tb.TempDir(), "host_key"),
		MaxSessions: 1000, MaxPerAddr: 1000, Logger: quietLogger(),
		// Sixteen huge screens drawn at once under the race detector on a
		// busy machine can take longer than the default handshake's 10 s
		// to show the game: a hang guard here, not what is measured.
		HandshakeTimeout: time.Minute, BannerTimeout: time.Minute})
	if err != nil {
		tb.Fatal(err)
	}
	admittest.Serve(tb, ss, sshd.ErrServerClosed)
	return ss, func() { ss.Close(); g.Close() }
}

// quietWeb is quietSSH's web front end.
func quietWeb(tb testing.TB, cfg world.Config) (ws *Server, close func()) {
	tb.Helper()
	g, addr := quietGame(tb, cfg)
	ws = startWeb(tb, Options{GameAddr: addr, Dial: g.Dial, MaxSessions: 1000, MaxPerAddr: 1000, Logger: quietLogger(),
		HandshakeTimeout: time.Minute})
	return ws, func() { ws.Close(); g.Close() }
}

// heapPerSession opens n sessions with open, all at once, has each show
// its help once it shows the game, and returns the live heap they hold,
// per session.
func heapPerSession(tb testing.TB, n int, open func(i int) rawSession) float64 {
	tb.Helper()
	before := liveHeap()
	sessions := make([]rawSession, n)
	games := make([]func(testing.TB), n)
	for i := range sessions {
		sessions[i] = open(i)
		games[i] = sessions[i].out.expect("Pending inputs")
	}
	helps := make([]func(testing.TB), n)
	for i, r := range sessions {
		games[i](tb)
		helps[i] = r.out.expect("┌") // the help's box: only the help draws it
		r.send("?")
	}
	for _, help := range helps {
		help(tb)
	}
	return float64(liveHeap()-before) / float64(n)
}

// Sixteen web sessions from one address (the -web-per-addr default) on
// terminals of 10000x10000, each with its help open, cost no more heap
// each than sixteen SSH sessions from one address on the same terminals:
// the same screen, clamped and centred (remote.OpenScreen), whatever
// size a page claims.
func TestHugeTerminalsCostAsOverSSH(t *testing.T) {
	if testing.Short() {
		t.Skip("opens 34 sessions on huge terminals")
	}
	if raceOn {
		t.Skip("the race detector makes huge screens a minute's drawing; make test runs this test without it")
	}
	// Each front on a game server of its own, one after the other (a
	// session drawing a huge screen costs CPU, under the race detector
	// much of it), after a first session that bears what a front's
	// first session alone costs.
	const n, side = DefaultMaxPerAddr, maxTermSide
	start := time.Now()
	ss, closeSSH := quietSSH(t, world.Config{})
	heapPerSession(t, 1, func(int) rawSession { return rawSSHSession(t, ss, "127.0.0.4", side, side) })
	ssh := heapPerSession(t, n, func(int) rawSession { return rawSSHSession(t, ss, "127.0.0.2", side, side) })
	closeSSH()
	ws, _ := quietWeb(t, world.Config{})
	heapPerSession(t, 1, func(int) rawSession { return rawWebSession(t, ws, "127.0.0.4", 100, side, side) })
	web := heapPerSession(t, n, func(i int) rawSession { return rawWebSession(t, ws, "127.0.0.3", i, side, side) })
	t.Logf("heap per session of %d from one address on a %dx%d terminal, help open: SSH %.0f KB, web %.0f KB (web/SSH %.2f); %s",
		n, side, side, ssh/1024, web/1024, web/ssh, time.Since(start).Round(time.Millisecond))
	if web > ssh {
		t.Errorf("a web session costs %.0f KB, an SSH session %.0f KB: want the web's no more", web/1024, ssh/1024)
	}
}

// BenchmarkSessionCost measures what one web session costs the process
// (server, game server and the WebSocket clients in one) at a terminal
// size, as sshd's BenchmarkSessionCost does an SSH session: the heap it
// holds once it shows the game with its help open (heap-KB/session) and
// the CPU it takes idle, for 2 s, while the server sends its States
// (idle-cpu-%/session), on the classic map and on a 1024x1024 one; and
// the same of an SSH session with its help open (front=ssh), for the
// ratio. Run with -benchtime 8x (sessions).
func BenchmarkSessionCost(b *testing.B) {
	for _, m := range remotetest.CostMaps(b) {
		for _, size := range remotetest.CostSizes {
			for _, front := range []string{"web", "ssh"} {
				b.Run(fmt.Sprintf("%s/%dx%d/front=%s", m.Name, size[0], size[1], front), func(b *testing.B) {
					var open func(i int) rawSession
					if front == "ssh" {
						ss, _ := quietSSH(b, world.Config{Map: m.Map})
						open = func(int) rawSession { return rawSSHSession(b, ss, "127.0.0.1", size[0], size[1]) }
					} else {
						ws, _ := quietWeb(b, world.Config{Map: m.Map})
						open = func(i int) rawSession { return rawWebSession(b, ws, "127.0.0.1", i, size[0], size[1]) }
					}
					b.ResetTimer()
					heap := heapPerSession(b, b.N, open)
					b.StopTimer()
					cpu, start := processCPU(), time.Now()
					time.Sleep(2 * time.Second)
					idle := float64(processCPU()-cpu) / float64(time.Since(start))
					b.ReportMetric(heap/1024, "heap-KB/session")
					b.ReportMetric(100*idle/float64(b.N), "idle-cpu-%/session")
				})
			}
		}
	}
}
