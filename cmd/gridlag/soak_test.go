//go:build soak

package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/charmbracelet/log"
	gossh "golang.org/x/crypto/ssh"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server"
	"gridlag/sshd"
)

// TestSoak runs a headless game with its SSH front end under churn,
// garbage, slow readers, ping floods and connection floods, SSH sockets
// that never send a banner and SSH sessions on huge terminals flooding
// window changes, while an honest player plays from its own address and
// an honest SSH player connects and plays from another, for $SOAK
// (default 10m). It prints what the process holds against its baseline,
// the honest players' round trips and handshakes, and the SSH front end's
// refusals. Run it with `make soak` (SOAK=2m make soak).
func TestSoak(t *testing.T) {
	length := 10 * time.Minute
	if v := os.Getenv("SOAK"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("SOAK=%q: %v", v, err)
		}
		length = d
	}
	f := gameFlags{rate: server.DefaultRate, moveTime: server.DefaultMoveTime, ssh: "127.0.0.1:0",
		sshKey: filepath.Join(t.TempDir(), "host_ed25519"),
		sshLimit: sshLimits{perAddr: sshd.DefaultMaxPerAddr, max: sshd.DefaultMaxSessions, handshakes: sshd.DefaultMaxHandshakes,
			handshakesPerAddr: sshd.DefaultMaxHandshakesPerAddr, idle: sshd.DefaultIdleTimeout, handshake: sshd.DefaultHandshakeTimeout,
			banner: sshd.DefaultBannerTimeout},
		limits: gameLimits{conns: server.DefaultMaxConns, connsPerAddr: server.DefaultMaxConnsPerAddr,
			playersPerAddr: server.DefaultMaxPlayersPerAddr, writeBuffer: server.DefaultWriteBuffer, writeTimeout: server.DefaultWriteTimeout}}
	logFile, err := os.Create(filepath.Join(t.TempDir(), "server.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer logFile.Close()
	g, err := startGame(context.Background(), f, "127.0.0.1:0", log.New(logFile), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	for g.ssh.Addr() == nil { // Serve is starting
		time.Sleep(time.Millisecond)
	}
	sshAddr := g.ssh.Addr().String()
	base := measure()

	ctx, stop := context.WithTimeout(context.Background(), length)
	defer stop()
	var wg sync.WaitGroup
	attack := func(name string, n int, fn func(ctx context.Context, i int)) {
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				fn(ctx, i)
			}()
		}
	}
	var counts sync.Map // attack name → *atomic.Int64 of attempts
	count := func(name string) {
		v, _ := counts.LoadOrStore(name, new(atomic.Int64))
		v.(*atomic.Int64).Add(1)
	}
	attack("churn", 4, func(ctx context.Context, _ int) {
		every(ctx, 20*time.Millisecond, func() { count("churn"); churn(g.addr) })
	})
	attack("garbage", 2, func(ctx context.Context, _ int) {
		every(ctx, 20*time.Millisecond, func() { count("garbage"); garbage(g.addr) })
	})
	attack("slow readers", 1, func(ctx context.Context, _ int) { slowReaders(ctx, g.addr, 40, count) })
	attack("ping floods", 2, func(ctx context.Context, _ int) {
		every(ctx, 200*time.Millisecond, func() { count("ping floods"); pingFlood(g.addr) })
	})
	attack("connection floods", 3, func(ctx context.Context, i int) {
		connFlood(ctx, g.addr, fmt.Sprintf("127.0.0.%d", 2+i), 150, func() { count("connection floods") })
	})
	attack("ssh banner-less", 16, func(ctx context.Context, i int) {
		sshBannerless(ctx, sshAddr, fmt.Sprintf("127.0.1.%d", 2+i), func() { count("ssh banner-less") })
	})
	attack("ssh big terminals", 1, func(ctx context.Context, _ int) {
		sshBigTerminals(ctx, sshAddr, "127.0.1.20", sshd.DefaultMaxPerAddr, func() { count("ssh big terminals") })
	})
	honest := playHonestly(ctx, g.addr)
	honestSSH := playHonestlyOverSSH(ctx, sshAddr)
	res := <-honest
	sshRes := <-honestSSH
	wg.Wait()
	time.Sleep(3 * time.Second) // the server sees the last attackers go
	end := measure()
	g.close()
	closed := measure()

	fmt.Printf("soak of %v against gridlag -server -ssh (in process); attempts:\n", length)
	counts.Range(func(k, v any) bool {
		fmt.Printf("  %-18s %d\n", k.(string)+":", v.(*atomic.Int64).Load())
		return true
	})
	fmt.Printf("  %-12s %8s %8s %8s\n", "", "baseline", "end", "closed")
	fmt.Printf("  %-12s %8d %8d %8d\n", "goroutines", base.goroutines, end.goroutines, closed.goroutines)
	fmt.Printf("  %-12s %8d %8d %8d\n", "open fds", base.fds, end.fds, closed.fds)
	fmt.Printf("  %-12s %7.1fM %7.1fM %7.1fM\n", "heap in use", mb(base.heap), mb(end.heap), mb(closed.heap))
	fmt.Printf("  %-12s %7.1fM %7.1fM %7.1fM\n", "RSS", mb(base.rss), mb(end.rss), mb(closed.rss))
	fmt.Printf("honest player (127.0.0.9): %d moves acknowledged, %d round trips, p50 %v, p99 %v, max %v\n",
		res.acked, len(res.rtts), pct(res.rtts, 50), pct(res.rtts, 99), pct(res.rtts, 100))
	if res.lost != "" {
		fmt.Printf("honest player was refused or dropped: %s\n", res.lost)
		t.Errorf("the honest player was refused or dropped: %s", res.lost)
	} else {
		fmt.Println("honest player was never refused nor dropped")
	}
	fmt.Printf("honest ssh player (127.0.0.10): %d of %d sessions got in and played, handshake p50 %v p99 %v max %v, game shown p50 %v p99 %v max %v\n",
		sshRes.played, sshRes.tries, pct(sshRes.handshakes, 50), pct(sshRes.handshakes, 99), pct(sshRes.handshakes, 100),
		pct(sshRes.shown, 50), pct(sshRes.shown, 99), pct(sshRes.shown, 100))
	if sshRes.played < sshRes.tries || sshRes.tries == 0 {
		fmt.Printf("honest ssh player failed: %s\n", sshRes.lost)
		t.Errorf("the honest ssh player got in %d times of %d: %s", sshRes.played, sshRes.tries, sshRes.lost)
	}
	resized := g.ssh.Stats()
	fmt.Printf("ssh: %d window changes resized a screen; refusals, cuts and evictions: %v\n", resized.Resizes, resized.Refused)
	if end.goroutines > base.goroutines+10 || end.fds > base.fds+10 {
		t.Errorf("the server holds %d goroutines and %d fds after the attacks, %d and %d before them",
			end.goroutines, end.fds, base.goroutines, base.fds)
	}
}

// usage is what the process holds.
type usage struct {
	goroutines, fds int
	heap, rss       uint64
}

func measure() usage {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	u := usage{goroutines: runtime.NumGoroutine(), heap: ms.HeapInuse}
	if fds, err := os.ReadDir("/proc/self/fd"); err == nil {
		u.fds = len(fds)
	}
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
				kb, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
				u.rss = kb << 10
			}
		}
	}
	return u
}

func mb(b uint64) float64 { return float64(b) / (1 << 20) }

// pct is the p-th percentile of ds.
func pct(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, len(s)*p/100)]
}

// every runs fn every period until ctx is done.
func every(ctx context.Context, period time.Duration, fn func()) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			fn()
		}
	}
}

// dialFrom connects to addr from the loopback address local.
func dialFrom(local, addr string) (net.Conn, error) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}, Timeout: 5 * time.Second}
	return d.Dial("tcp", addr)
}

// churn joins, moves a little and leaves, abruptly half the time.
func churn(addr string) {
	c, err := dialFrom("127.0.0.2", addr)
	if err != nil {
		return
	}
	defer c.Close()
	enc := protocol.NewEncoder(c)
	enc.Encode(&protocol.Hello{Version: protocol.Version, Name: "churn"})
	for seq := uint32(1); seq <= 3; seq++ {
		enc.Encode(&protocol.Input{Seq: seq, Dir: grid.Right})
	}
	if rand.IntN(2) == 0 {
		enc.Encode(&protocol.Bye{Reason: "churn"})
	}
}

// garbage sends bytes that are not frames.
func garbage(addr string) {
	c, err := dialFrom("127.0.0.3", addr)
	if err != nil {
		return
	}
	defer c.Close()
	b := make([]byte, 64)
	for i := range b {
		b[i] = byte(rand.IntN(256))
	}
	c.Write(b)
}

// slowReaders keeps n clients joined that never read, replacing the ones
// the server drops.
func slowReaders(ctx context.Context, addr string, n int, count func(string)) {
	sem := make(chan struct{}, n)
	for ctx.Err() == nil {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			return
		}
		count("slow readers")
		go func() {
			defer func() { <-sem }()
			c, err := dialFrom("127.0.0.4", addr)
			if err != nil {
				time.Sleep(100 * time.Millisecond)
				return
			}
			defer c.Close()
			c.(*net.TCPConn).SetReadBuffer(4096)
			protocol.NewEncoder(c).Encode(&protocol.Hello{Version: protocol.Version, Name: "slow"})
			// Keep it alive with a ping a second, read nothing.
			enc := protocol.NewEncoder(c)
			for ctx.Err() == nil {
				if enc.Encode(&protocol.Ping{}) != nil {
					return
				}
				select {
				case <-time.After(time.Second):
				case <-ctx.Done():
				}
			}
		}()
	}
}

// pingFlood joins and sends 1,000 Pings at once, reading what comes.
func pingFlood(addr string) {
	c, err := dialFrom("127.0.0.5", addr)
	if err != nil {
		return
	}
	defer c.Close()
	b, _ := protocol.Append(nil, &protocol.Hello{Version: protocol.Version, Name: "flood"})
	for i := range 1000 {
		b, _ = protocol.Append(b, &protocol.Ping{Stamp: uint64(i)})
	}
	go c.Write(b)
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	io.Copy(io.Discard, c)
}

// connFlood holds up to n idle connections from local to addr, opening a
// new one as the server cuts or refuses them.
func connFlood(ctx context.Context, addr, local string, n int, count func()) {
	var open []net.Conn
	defer func() {
		for _, c := range open {
			c.Close()
		}
	}()
	cut := make(chan net.Conn, n)
	for ctx.Err() == nil {
		select {
		case c := <-cut:
			open = slices.DeleteFunc(open, func(o net.Conn) bool { return o == c })
			c.Close()
		default:
		}
		if len(open) >= n {
			select {
			case c := <-cut:
				open = slices.DeleteFunc(open, func(o net.Conn) bool { return o == c })
				c.Close()
			case <-ctx.Done():
			}
			continue
		}
		count()
		c, err := dialFrom(local, addr)
		if err != nil {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		open = append(open, c)
		go func() {
			io.Copy(io.Discard, c)
			cut <- c
		}()
		time.Sleep(5 * time.Millisecond)
	}
}

// honestResult is how the honest player fared.
type honestResult struct {
	rtts  []time.Duration
	acked uint32
	lost  string // why it was refused or dropped, "" if never
}

// playHonestly plays from 127.0.0.9 until ctx is done: a move every 150 ms
// (over the speed limit of 100 ms), a Ping every 100 ms.
func playHonestly(ctx context.Context, addr string) <-chan honestResult {
	done := make(chan honestResult, 1)
	go func() {
		var (
			res honestResult
			mu  sync.Mutex // guards res against the reader
		)
		defer func() {
			mu.Lock()
			defer mu.Unlock()
			res.rtts = slices.Clone(res.rtts)
			done <- res
		}()
		c, err := dialFrom("127.0.0.9", addr)
		if err != nil {
			res.lost = err.Error()
			return
		}
		defer c.Close()
		enc := protocol.NewEncoder(c)
		if err := enc.Encode(&protocol.Hello{Version: protocol.Version, Name: "honest"}); err != nil {
			res.lost = err.Error()
			return
		}
		read := make(chan string, 1)
		go func() {
			dec := protocol.NewDecoder(c)
			for {
				c.SetReadDeadline(time.Now().Add(10 * time.Second))
				m, err := dec.Decode()
				if err != nil {
					read <- err.Error()
					return
				}
				mu.Lock()
				switch m := m.(type) {
				case *protocol.Pong:
					res.rtts = append(res.rtts, time.Duration(time.Now().UnixNano()-int64(m.Stamp)))
				case *protocol.State:
					res.acked = m.Ack
				case *protocol.Error:
					read <- "error: " + m.Text
					mu.Unlock()
					return
				case *protocol.Bye:
					read <- "bye: " + m.Reason
					mu.Unlock()
					return
				}
				mu.Unlock()
			}
		}()
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		var seq uint32
		for n := 0; ; n++ {
			select {
			case <-ctx.Done():
				enc.Encode(&protocol.Bye{Reason: "soak over"})
				return
			case why := <-read:
				mu.Lock()
				res.lost = why
				mu.Unlock()
				return
			case <-tick.C:
			}
			if n%2 == 0 {
				enc.Encode(&protocol.Ping{Stamp: uint64(time.Now().UnixNano())})
			}
			if n%3 == 0 {
				seq++
				dir := grid.Right
				if seq%2 == 0 {
					dir = grid.Left
				}
				enc.Encode(&protocol.Input{Seq: seq, Dir: dir})
			}
		}
	}()
	return done
}

// sshBannerless keeps twice its address's share of the SSH handshakes
// open from local with sockets that never send a banner, opening new ones
// as the server cuts, refuses or evicts them.
func sshBannerless(ctx context.Context, sshAddr, local string, count func()) {
	connFlood(ctx, sshAddr, local, 2*sshd.DefaultMaxHandshakesPerAddr, count)
}

// sshClient connects to sshAddr from local as user without a key, within
// 10 s.
func sshClient(sshAddr, local, user string) (*gossh.Client, error) {
	c, err := dialFrom(local, sshAddr)
	if err != nil {
		return nil, err
	}
	c.SetDeadline(time.Now().Add(10 * time.Second))
	cfg := &gossh.ClientConfig{User: user, HostKeyCallback: gossh.InsecureIgnoreHostKey(),
		Auth: []gossh.AuthMethod{gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })}}
	sc, chans, reqs, err := gossh.NewClientConn(c, sshAddr, cfg)
	if err != nil {
		c.Close()
		return nil, err
	}
	c.SetDeadline(time.Time{})
	return gossh.NewClient(sc, chans, reqs), nil
}

// sshTerminal opens a session with a cols x rows terminal running the
// game; its output goes to out, its keys come from the returned writer.
func sshTerminal(c *gossh.Client, cols, rows int, out io.Writer) (*gossh.Session, io.WriteCloser, error) {
	sess, err := c.NewSession()
	if err != nil {
		return nil, nil, err
	}
	in, err := sess.StdinPipe()
	if err == nil {
		sess.Stdout = out
		err = sess.RequestPty("xterm-256color", rows, cols, nil)
	}
	if err == nil {
		err = sess.Shell()
	}
	if err != nil {
		sess.Close()
		return nil, nil, err
	}
	return sess, in, nil
}

// sshBigTerminals keeps n game sessions open from local on terminals of
// 10000x10000, each flooding window changes that alternate with 80x24,
// reading what the server draws: half of them 90 a second, as many as a
// session may send without being cut, the others as fast as they can
// (the server cuts them as floods). A session that ends is opened again.
func sshBigTerminals(ctx context.Context, sshAddr, local string, n int, count func()) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			for ctx.Err() == nil {
				count()
				c, err := sshClient(sshAddr, local, "big")
				if err != nil {
					time.Sleep(100 * time.Millisecond)
					continue
				}
				stop := context.AfterFunc(ctx, func() { c.Close() })
				sess, _, err := sshTerminal(c, 10000, 10000, io.Discard)
				for j := 0; err == nil && ctx.Err() == nil; j++ {
					w, h := 10000, 10000
					if j%2 == 1 {
						w, h = 80, 24
					}
					err = sess.WindowChange(h, w)
					if i%2 == 0 {
						time.Sleep(time.Second / 90)
					}
				}
				stop()
				c.Close()
			}
		})
	}
	wg.Wait()
}

// sshHonestResult is how the honest SSH player fared.
type sshHonestResult struct {
	tries, played     int
	handshakes, shown []time.Duration // handshake, and connect to the game on screen
	lost              string          // the last failure, "" if none
}

// watchFor is a session's output, dropped as it comes, watched for a
// text.
type watchFor struct {
	mu    sync.Mutex
	want  []byte
	tail  []byte
	found chan struct{}
}

func (w *watchFor) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.tail == nil {
		return len(p), nil // found already
	}
	buf := append(w.tail, p...)
	if strings.Contains(string(buf), string(w.want)) {
		w.tail = nil
		close(w.found)
		return len(p), nil
	}
	w.tail = append(w.tail[:0], buf[max(0, len(buf)-len(w.want)):]...)
	return len(p), nil
}

// playHonestlyOverSSH connects over SSH from 127.0.0.10 every 2 s until
// ctx is done, as a player would with ssh: the handshake, a terminal of
// 80x24, the game on screen, a few steps, then q. A session that cannot
// get in, or does not show the game within 10 s, is a failure.
func playHonestlyOverSSH(ctx context.Context, sshAddr string) <-chan sshHonestResult {
	done := make(chan sshHonestResult, 1)
	go func() {
		var res sshHonestResult
		defer func() { done <- res }()
		for ctx.Err() == nil {
			res.tries++
			start := time.Now()
			c, err := sshClient(sshAddr, "127.0.0.10", "honest-ssh")
			if err != nil {
				res.lost = "handshake: " + err.Error()
				continue
			}
			res.handshakes = append(res.handshakes, time.Since(start))
			w := &watchFor{want: []byte("Pending inputs"), tail: []byte{}, found: make(chan struct{})}
			_, in, err := sshTerminal(c, 80, 24, w)
			if err == nil {
				select {
				case <-w.found:
					res.shown = append(res.shown, time.Since(start))
				case <-time.After(10 * time.Second):
					err = fmt.Errorf("the game did not show within 10s")
				}
			}
			if err != nil {
				res.lost = "session: " + err.Error()
				c.Close()
				continue
			}
			for _, key := range []string{"\x1b[C", "\x1b[D", "\x1b[C", "\x1b[D"} {
				time.Sleep(150 * time.Millisecond)
				io.WriteString(in, key)
			}
			io.WriteString(in, "q")
			c.Close()
			res.played++
			select {
			case <-ctx.Done():
			case <-time.After(2 * time.Second):
			}
		}
	}()
	return done
}
