package web

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	gossh "golang.org/x/crypto/ssh"

	"gridlag/front/sshd"
	"gridlag/internal/vt"
	"gridlag/server"
	"gridlag/server/admit/admittest"
)

// player is one player of a front end, seen from the player's side: the
// bytes on the wire, the terminal they draw on, and the keys it sends.
type player struct {
	wire *admittest.CountingConn
	term *vt.Term
	send func(keys string)
}

// sshPlayer plays over SSH (a key, a 100x40 xterm-256color terminal).
func sshPlayer(t testing.TB, s *sshd.Server) player {
	t.Helper()
	raw, err := net.Dial("tcp", s.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	cc := &admittest.CountingConn{Conn: raw}
	term := vt.New(100, 40)
	return player{wire: cc, term: term, send: sshTerminal(t, cc, "ada", 100, 40, term)}
}

// sshTerminal opens an SSH session on conn as user with a key of its
// own, on an xterm-256color terminal of cols x rows drawing on out, and
// returns what sends it keys.
func sshTerminal(t testing.TB, conn net.Conn, user string, cols, rows int, out io.Writer) (send func(keys string)) {
	t.Helper()
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	key, _ := gossh.NewSignerFromKey(priv)
	cfg := &gossh.ClientConfig{User: user, Auth: []gossh.AuthMethod{gossh.PublicKeys(key)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: waitLong}
	sc, chans, reqs, err := gossh.NewClientConn(conn, conn.RemoteAddr().String(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := gossh.NewClient(sc, chans, reqs)
	t.Cleanup(func() { c.Close() })
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	sess.Stdout = out
	in, err := sess.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("xterm-256color", rows, cols, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	return func(keys string) { io.WriteString(in, keys) }
}

// webPlayer plays in a browser's stead (a 100x40 terminal).
func webPlayer(t testing.TB, s *Server) player {
	t.Helper()
	var cc *admittest.CountingConn
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err == nil {
			cc = &admittest.CountingConn{Conn: c}
			return cc, nil
		}
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	addr := s.Addr().String()
	c, _, err := websocket.Dial(ctx, "ws://"+addr+socketPath, &websocket.DialOptions{
		HTTPHeader: http.Header{"Origin": {"http://" + addr}},
		HTTPClient: &http.Client{Transport: &http.Transport{DialContext: dial}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.CloseNow() })
	b, _ := json.Marshal(hello{Name: "ada", ID: testID(1), Path: "/", Cols: 100, Rows: 40})
	c.Write(ctx, websocket.MessageText, b)
	term := vt.New(100, 40)
	go func() {
		for {
			typ, data, err := c.Read(context.Background())
			if err != nil {
				return
			}
			if typ == websocket.MessageBinary {
				term.Write(data)
			}
		}
	}()
	return player{wire: cc, term: term, send: func(keys string) { c.Write(context.Background(), websocket.MessageBinary, []byte(keys)) }}
}

// cost is what a player receives, in bytes a second and a move: what
// reaches the terminal, and what crosses the network.
type cost struct {
	idleTerm, idleWire float64 // a second, pressing nothing
	moveTerm, moveWire float64 // a one-cell move, from its key until the screen shows it
}

// measure has p stand still for d, then walk ten cells back and forth,
// and returns its cost. A move costs the bytes from its key until the
// screen shows it as the server's word, the median of the ten: what a
// busy machine draws meanwhile (a round trip's new figure) falls out of
// the median, as it would not of a rate over the walk.
func measure(t testing.TB, p player, g *server.Server, d time.Duration) cost {
	t.Helper()
	// The first State and the first ping's round trip on the screen.
	admittest.Eventually(t, func() bool {
		return strings.Contains(p.term.Text(), "you (10,10)") && strings.Contains(p.term.Text(), "rtt ")
	},
		func() string { return "no game on the screen:\n" + p.term.Text() })
	sent := g.Stats().StatesSent
	admittest.Eventually(t, func() bool { return g.Stats().StatesSent >= sent+4 }, // and the frames of four States more
		func() string { return fmt.Sprintf("the game sent no States: %+v", g.Stats()) })
	var c cost
	term0, wire0, start := p.term.Bytes(), p.wire.Bytes(), time.Now()
	time.Sleep(d) // the idle window: what is measured
	secs := time.Since(start).Seconds()
	c.idleTerm, c.idleWire = float64(p.term.Bytes()-term0)/secs, float64(p.wire.Bytes()-wire0)/secs

	var terms, wires []int64
	keys, cells := []string{"\x1b[C", "\x1b[D"}, []string{"(11,10)", "(10,10)"}
	for i := range 10 {
		term0, wire0 := p.term.Bytes(), p.wire.Bytes()
		p.send(keys[i%2]) // the client holds it back until the speed limit allows it
		admittest.Eventually(t, func() bool {
			screen := p.term.Text()
			return strings.Contains(screen, "you "+cells[i%2]) && strings.Contains(screen, "server "+cells[i%2])
		}, func() string { return "move " + fmt.Sprint(i+1) + " never on the screen:\n" + p.term.Text() })
		terms, wires = append(terms, p.term.Bytes()-term0), append(wires, p.wire.Bytes()-wire0)
	}
	c.moveTerm, c.moveWire = median(terms), median(wires)
	return c
}

// median is the median of xs.
func median(xs []int64) float64 {
	slices.Sort(xs)
	n := len(xs)
	return float64(xs[(n-1)/2]+xs[n/2]) / 2
}

// bothFronts measures one player of the SSH front end, then one of the
// web front end, each alone on a game server of its own, counted as its
// own address (as gridlag -ssh -web runs them).
func bothFronts(t testing.TB, d time.Duration) (ssh, web cost) {
	g, addr := startGame(t, server.Options{})
	ss, err := sshd.New(sshd.Options{GameAddr: addr, Dial: g.Dial, HostKeyPath: filepath.Join(t.TempDir(), "host_key"), Logger: admittest.Logger(t).WithPrefix("ssh")})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go ss.Serve(ln)
	t.Cleanup(func() { ss.Close() })
	admittest.Eventually(t, func() bool { return ss.Addr() != nil }, func() string { return "the SSH front end never served" })
	ssh = measure(t, sshPlayer(t, ss), g, d)
	ws, wg := startGameWeb(t, Options{})
	web = measure(t, webPlayer(t, ws), wg, d)
	return ssh, web
}

// A one-cell move costs a browser's player about what it costs an SSH
// player: the same frame diff, in WebSocket messages instead of SSH
// packets (which are encrypted, padded and authenticated).
func TestMoveCostsAsOverSSH(t *testing.T) {
	if testing.Short() {
		t.Skip("measures for seconds")
	}
	// A busy machine can hold a session's output back and let it catch
	// up in one redraw: up to three runs, the first in which both
	// fronts were measured without such a burst decides.
	var ssh, web cost
	for try := 0; try < 3; try++ {
		ssh, web = bothFronts(t, 2*time.Second)
		if web.moveWire <= 1.5*ssh.moveWire && web.idleWire <= 1.5*ssh.idleWire {
			break
		}
		t.Logf("run %d: web idle %.0f B/s, a move %.0f B; ssh idle %.0f B/s, a move %.0f B", try+1, web.idleWire, web.moveWire, ssh.idleWire, ssh.moveWire)
	}
	t.Logf("ssh: idle %5.0f B/s on the wire (%5.0f to the terminal); a move %4.0f B on the wire (%4.0f to the terminal)", ssh.idleWire, ssh.idleTerm, ssh.moveWire, ssh.moveTerm)
	t.Logf("web: idle %5.0f B/s on the wire (%5.0f to the terminal); a move %4.0f B on the wire (%4.0f to the terminal)", web.idleWire, web.idleTerm, web.moveWire, web.moveTerm)
	if web.moveWire > 1.5*ssh.moveWire {
		t.Errorf("a move costs %.0f B over the web, %.0f B over SSH: want about the same", web.moveWire, ssh.moveWire)
	}
	if web.idleWire > 1.5*ssh.idleWire {
		t.Errorf("an idle player costs %.0f B/s over the web, %.0f B/s over SSH: want about the same", web.idleWire, ssh.idleWire)
	}
}

// BenchmarkMoveBytes reports what one move and one idle second cost an SSH
// player and a browser's player, on the wire, and their ratio (go test
// -run '^$' -bench MoveBytes ./web).
func BenchmarkMoveBytes(b *testing.B) {
	var ssh, web cost
	for b.Loop() {
		ssh, web = bothFronts(b, 2*time.Second)
	}
	b.ReportMetric(ssh.moveWire, "ssh-move-B")
	b.ReportMetric(web.moveWire, "web-move-B")
	b.ReportMetric(web.moveWire/ssh.moveWire, "web/ssh-move")
	b.ReportMetric(ssh.idleWire, "ssh-idle-B/s")
	b.ReportMetric(web.idleWire, "web-idle-B/s")
}
