package sshd

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/log"
	gossh "golang.org/x/crypto/ssh"

	"gridlag/front/remote/remotetest"
	"gridlag/server/admit/admittest"
	"gridlag/server/world"
	"gridlag/tui"
)

// streamWatch is a session's output, dropped as it comes (a huge
// terminal's screen is never kept), watched for a text.
type streamWatch struct {
	mu    sync.Mutex
	tail  []byte // the last bytes, for a text cut across two writes
	seen  chan struct{}
	want  []byte
	found bool
	n     atomic.Int64
}

func newStreamWatch(want string) *streamWatch {
	return &streamWatch{seen: make(chan struct{}), want: []byte(want)}
}

func (w *streamWatch) Write(p []byte) (int, error) {
	w.n.Add(int64(len(p)))
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.found {
		buf := append(w.tail, p...)
		if bytes.Contains(buf, w.want) {
			w.found = true
			close(w.seen)
		}
		w.tail = append(w.tail[:0], buf[max(0, len(buf)-len(w.want)):]...)
	}
	return len(p), nil
}

// rawTerm opens a session with a cols x rows terminal whose output is
// watched for want and dropped; it returns the session and the watch.
func rawTerm(tb testing.TB, c *gossh.Client, cols, rows int, want string) (*gossh.Session, *streamWatch) {
	tb.Helper()
	sess, err := c.NewSession()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { sess.Close() })
	if err := sess.RequestPty("xterm-256color", rows, cols, nil); err != nil {
		tb.Fatal(err)
	}
	out, err := sess.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := sess.StdinPipe(); err != nil { // open, never written: the session waits for keys
		tb.Fatal(err)
	}
	w := newStreamWatch(want)
	if err := sess.Shell(); err != nil {
		tb.Fatal(err)
	}
	go io.Copy(w, out)
	return sess, w
}

// waitSeen waits until the watch saw its text.
func (w *streamWatch) waitSeen(tb testing.TB) {
	tb.Helper()
	select {
	case <-w.seen:
	case <-time.After(waitLong):
		tb.Fatalf("the session never showed %q", w.want)
	}
}

// liveHeap is the heap in use after two collections.
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// processCPU is the CPU time the process has used.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkSessionCost measures what one game session over SSH costs the
// process (server, game server and the SSH clients in one) at a terminal
// size: the heap it holds once it shows the game (heap-KB/session) and
// the CPU it takes idle, for 2 s, while the server sends its States
// (idle-cpu-%/session), on the classic map and on a 1024x1024 one. A
// terminal of 10000x10000 is clamped to tui.MaxWidth x tui.MaxHeight; run
// with -benchtime 8x (sessions).
func BenchmarkSessionCost(b *testing.B) {
	for _, m := range remotetest.CostMaps(b) {
		for _, size := range remotetest.CostSizes {
			b.Run(fmt.Sprintf("%s/%dx%d", m.Name, size[0], size[1]), func(b *testing.B) {
				_, addr := startGameWith(b, world.Config{Rate: world.DefaultRate, Map: m.Map, MaxPlayers: 1000})
				s := startSSH(b, Options{GameAddr: addr, MaxSessions: 1000, MaxPerAddr: 1000, Logger: quietLogger()})
				before := liveHeap()
				b.ResetTimer()
				for range b.N {
					_, w := rawTerm(b, dialSSH(b, s, "ada", nil), size[0], size[1], "Pending inputs")
					w.waitSeen(b)
				}
				b.StopTimer()
				// A benchmark's idle window, what it measures: the first
				// frames settle, then 2 s of sessions doing nothing.
				time.Sleep(500 * time.Millisecond)
				heap := liveHeap()
				cpu, start := processCPU(), time.Now()
				time.Sleep(2 * time.Second)
				idle := float64(processCPU()-cpu) / float64(time.Since(start))
				b.ReportMetric(float64(heap-before)/1024/float64(b.N), "heap-KB/session")
				b.ReportMetric(100*idle/float64(b.N), "idle-cpu-%/session")
			})
		}
	}
}

// quietLogger discards the log: a benchmark's own lines would cost what
// it measures.
func quietLogger() *log.Logger { return log.New(io.Discard) }

// flood sends window changes alternating between a huge size and 80x24
// on sess until stop is closed, perSecond a second (0: as fast as it
// can), and returns how many it sent.
func flood(sess *gossh.Session, stop <-chan struct{}, perSecond int) (sent int) {
	var tick <-chan time.Time
	if perSecond > 0 {
		t := time.NewTicker(time.Second / time.Duration(perSecond))
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-stop:
			return sent
		case <-tick:
		default:
			if tick != nil {
				select {
				case <-stop:
					return sent
				case <-tick:
				}
			}
		}
		w, h := 10000, 10000
		if sent%2 == 1 {
			w, h = 80, 24
		}
		if sess.WindowChange(h, w) != nil {
			return sent
		}
		sent++
	}
}

// Four sessions on huge terminals from one address flood window changes
// alternating sizes while a player from another address walks: every
// step of the player is acknowledged, the flooders' screens are resized
// no more than the limit allows while it walks, and each flood is cut as
// one.
func TestWindowChangeFloodSparesTheHonestPlayer(t *testing.T) {
	s := startGameSSH(t, Options{Logger: quietLogger()})
	var floods []*gossh.Session
	var clients []*gossh.Client
	for range 4 {
		c := dialFromSSH(t, s, "127.0.0.2", "mob")
		sess, w := rawTerm(t, c, 10000, 10000, "Pending inputs")
		w.waitSeen(t)
		floods, clients = append(floods, sess), append(clients, c)
	}
	ada := openTerm(t, dialFromSSH(t, s, "127.0.0.3", "ada"), "xterm-256color", 80, 24)
	ada.waitText("you (", "server (", "ack #0 ")

	stop := make(chan struct{})
	var sent atomic.Int64
	var wg sync.WaitGroup
	for _, sess := range floods {
		wg.Go(func() { sent.Add(int64(flood(sess, stop, 0))) })
	}
	start := time.Now()
	for i := range 10 {
		key := "\x1b[C"
		if i%2 == 1 {
			key = "\x1b[D"
		}
		// A player's pace, slower than the speed limit so that each key
		// moves: a lower bound, which a busy machine only lengthens (the
		// window changes allowed are counted over the time it took).
		time.Sleep(150 * time.Millisecond)
		ada.send(key)
		ada.waitText(fmt.Sprintf("ack #%d ", i+1), "pending 0")
	}
	took := time.Since(start)
	applied := int64(s.Stats().Resizes)
	// Each flooder floods on until it is cut: more than 600 requests at
	// once, then 100 a second, may take a busy machine longer than the
	// walk. The hang guard stops those never cut.
	if !admittest.Ends(wg.Wait) {
		t.Error("a flooder was never cut")
	}
	close(stop)
	for _, c := range clients {
		c.Close() // a flooder waits on its connection, which the server reads at its pace
	}
	wg.Wait()
	w := sessionLimits.window
	limit := int64(len(floods)) * (int64(w.Burst) + int64(took/w.Every) + 1)
	t.Logf("%d window changes sent in %v, %d applied (at most %d allowed)", sent.Load(), took.Round(time.Millisecond), applied, limit)
	if applied > limit {
		t.Errorf("%d window changes applied in %v by %d sessions, want at most %d", applied, took, len(floods), limit)
	}
	if n := s.Stats().Refused[KindRequestFlood]; n < uint64(len(floods)) {
		t.Errorf("%d floods cut, want each of the %d flooders", n, len(floods))
	}
}

// BenchmarkWindowChangeFlood measures four sessions on 10000x10000
// terminals sending window changes alternating with 80x24 for 2 s, 90 a
// second, as many as the limit on requests lets a session send without
// being cut (the process holds the SSH clients too): the peak of the
// heap in use during the flood, sampled every 10 ms, above the heap
// before it (peak-heap-MB), what was allocated a second (alloc-MB/s), the
// process's CPU (cpu-cores) and the screens resized a second
// (resizes/s). Run with -benchtime 1x.
func BenchmarkWindowChangeFlood(b *testing.B) {
	s := startGameSSH(b, Options{Logger: quietLogger()})
	var floods []*gossh.Session
	var clients []*gossh.Client
	for range 4 {
		c := dialSSH(b, s, "mob", nil)
		sess, w := rawTerm(b, c, 10000, 10000, "Pending inputs")
		w.waitSeen(b)
		floods, clients = append(floods, sess), append(clients, c)
	}
	before := liveHeap()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	alloc0, cpu0, start := ms.TotalAlloc, processCPU(), time.Now()
	b.ResetTimer()
	var peak uint64
	for i := range b.N {
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for _, sess := range floods {
			wg.Go(func() { flood(sess, stop, 90) })
		}
		// A benchmark's window: the heap sampled while the flood runs 2 s.
		for end := time.Now().Add(2 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapInuse)
		}
		close(stop)
		if i == b.N-1 {
			for _, c := range clients {
				c.Close() // a flooder waits on its connection, which the server reads at its pace
			}
		}
		wg.Wait()
	}
	b.StopTimer()
	took := time.Since(start)
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(peak-min(peak, before))/1e6, "peak-heap-MB")
	b.ReportMetric(float64(ms.TotalAlloc-alloc0)/1e6/took.Seconds(), "alloc-MB/s")
	b.ReportMetric(float64(processCPU()-cpu0)/float64(took), "cpu-cores")
	b.ReportMetric(float64(s.Stats().Resizes)/took.Seconds(), "resizes/s")
}

// On a terminal larger than the interface can use, the game is centred,
// as on a local terminal, and the mouse works where the game shows: a
// click on the prediction toggle turns it off.
func TestBigTerminalCentredWithMouse(t *testing.T) {
	s := startGameSSH(t, Options{Logger: quietLogger()})
	const cols, rows = 300, 100
	tm := openTerm(t, dialSSH(t, s, "ada", nil), "xterm-256color", cols, rows)
	screen := tm.waitText("you (10,10)", "[x] prediction")
	lines := strings.Split(screen, "\n")
	find := func(text string) (x, y int) {
		for y, l := range lines {
			if i := strings.Index(l, text); i >= 0 {
				return len([]rune(l[:i])), y
			}
		}
		t.Fatalf("%q not on screen:\n%s", text, screen)
		return 0, 0
	}
	// The block's middle is the terminal's (within a cell or two: the
	// block is centred on the screen, the screen on the terminal).
	boardX, _ := find("█████")
	panelX, _ := find("[x] prediction")
	_, statusY := find("you (10,10)")
	if mid := (boardX + panelX + 34) / 2; mid < cols/2-4 || mid > cols/2+4 {
		t.Errorf("the game spans columns %d to %d of %d: not centred", boardX, panelX+34, cols)
	}
	if statusY < rows/2 || statusY > rows/2+tui.MaxHeight/2 {
		t.Errorf("the status line is on row %d of %d: not centred", statusY, rows)
	}
	x, y := find("[x] prediction")
	tm.send(fmt.Sprintf("\x1b[<0;%d;%dM\x1b[<0;%d;%dm", x+2, y+1, x+2, y+1))
	tm.waitText("[ ] prediction")
}
