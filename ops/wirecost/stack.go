package wirecost

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"

	"github.com/coder/websocket"
	gossh "golang.org/x/crypto/ssh"

	"gridlag/client"
	"gridlag/client/tcp"
	"gridlag/front"
	"gridlag/front/remote"
	"gridlag/front/sshd"
	"gridlag/front/web"
	"gridlag/grid"
	"gridlag/internal/wire"
	"gridlag/server"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// stack is the servers a run measures: the game server on 127.0.0.1, an
// SSH and a web front end playing on it (through its in-process Dial, as
// gridlag serve -ssh -web does), each session handed to the run as it
// starts.
type stack struct {
	game   *server.Server
	ssh    *sshd.Server
	web    *web.Server
	keyDir string
	// The addresses each listens on, known before its Serve runs (its
	// own Addr is nil until then).
	gameAddr, sshAddr, webAddr string
	opts                       Options
	started                    chan *termSession // each front end session, as its handler starts
	wg                         sync.WaitGroup
}

func startStack(o Options) (*stack, error) {
	st := &stack{opts: o, started: make(chan *termSession, 4)}
	var err error
	st.game = server.New(server.Options{Hub: hub.Options{Config: world.Config{Rate: world.DefaultRate}}, Logger: o.Logger.WithPrefix("game")})
	if st.gameAddr, err = st.serve(st.game.Serve, server.ErrServerClosed); err != nil {
		st.close()
		return nil, err
	}
	dir, err := os.MkdirTemp("", "gridlag-wirecost-")
	if err != nil {
		st.close()
		return nil, err
	}
	st.keyDir = dir
	st.ssh, err = sshd.New(sshd.Options{HostKeyPath: filepath.Join(dir, "host_ed25519"), Dial: st.game.Dial,
		Handler: st.handler("ssh", sshd.Title), Logger: o.Logger.WithPrefix("ssh")})
	if err != nil {
		st.close()
		return nil, err
	}
	if st.sshAddr, err = st.serve(st.ssh.Serve, sshd.ErrServerClosed); err != nil {
		st.close()
		return nil, err
	}
	st.web, err = web.New(web.Options{Dial: st.game.Dial, Handler: st.handler("web", web.Title), Logger: o.Logger.WithPrefix("web")})
	if err != nil {
		st.close()
		return nil, err
	}
	if st.webAddr, err = st.serve(st.web.Serve, web.ErrServerClosed); err != nil {
		st.close()
		return nil, err
	}
	return st, nil
}

// serve serves one server on a listener of its own on 127.0.0.1, and
// returns the listener's address.
func (st *stack) serve(serve func(net.Listener) error, closed error) (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	st.wg.Add(1)
	go func() {
		defer st.wg.Done()
		if err := serve(ln); err != nil && !errors.Is(err, closed) {
			st.opts.Logger.Error("serving", "err", err)
		}
	}()
	return ln.Addr().String(), nil
}

// handler runs the game for a front end's session, as the front end's
// own would (remote.Game), and hands its player to the run.
func (st *stack) handler(frontName, title string) func(ctx context.Context, p *remote.Player) error {
	g := &remote.Game{Dial: st.game.Dial, Title: title, Front: frontName, Logger: st.opts.Logger.WithPrefix(frontName)}
	return func(ctx context.Context, p *remote.Player) error {
		ts := &termSession{p: p}
		prev := p.Joined
		p.Joined = func(s client.Session, resumed bool) {
			ts.set(s)
			if prev != nil {
				prev(s, resumed)
			}
		}
		select {
		case st.started <- ts:
		default:
		}
		return g.Play(ctx, p)
	}
}

// termSession is a front end's session: its player, and its game
// session once the game welcomed it.
type termSession struct {
	p  *remote.Player
	mu sync.Mutex
	s  client.Session
}

func (t *termSession) set(s client.Session) {
	t.mu.Lock()
	t.s = s
	t.mu.Unlock()
}

func (t *termSession) get() client.Session {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.s
}

func (st *stack) close() {
	if st.web != nil {
		st.web.Close()
	}
	if st.ssh != nil {
		st.ssh.Close()
	}
	if st.game != nil {
		st.game.Close()
	}
	st.wg.Wait()
	if st.keyDir != "" {
		os.RemoveAll(st.keyDir)
	}
}

// open connects a player of front.
func (st *stack) open(ctx context.Context, frontName string) (player, error) {
	switch frontName {
	case wire.FrontTCP:
		return st.openTCP(ctx)
	case wire.FrontSSH:
		return st.openSSH(ctx)
	case wire.FrontWeb:
		return st.openWeb(ctx)
	case FrontOpenSSH, FrontOpenSSHNoChaff:
		return st.openOpenSSH(ctx, frontName)
	}
	return nil, fmt.Errorf("no front end %q (tcp, ssh, web)", frontName)
}

// tcpPlayer is gridlag play's player: the game's client over TCP, counted
// as the game's terminal counts it (front.CountGame).
type tcpPlayer struct {
	m    *wire.Meter
	conn *tcp.Conn
}

func (st *stack) openTCP(ctx context.Context) (player, error) {
	m := wire.NewMeter(wire.FrontTCP)
	opts := tcp.Options{Options: client.Options{Name: "tcp"}, Dial: front.CountGame(m, nil), Logger: st.opts.Logger.WithPrefix("client")}
	c, err := tcp.Connect(ctx, st.gameAddr, opts)
	if err != nil {
		return nil, err
	}
	return &tcpPlayer{m: m, conn: c}, nil
}

func (p *tcpPlayer) meter() *wire.Meter      { return p.m }
func (p *tcpPlayer) session() client.Session { return p.conn }
func (p *tcpPlayer) press(d grid.Dir) error  { p.conn.Press(d); return nil }
func (p *tcpPlayer) close()                  { p.conn.Close() }

// termPlayer is a player over SSH or the web: a real client whose
// terminal sends the arrow keys' bytes, and reads everything the server
// draws; its counters and game session are the server's.
type termPlayer struct {
	ts     *termSession
	send   func([]byte) error
	closer func()
	done   chan struct{}
}

// arrows are the bytes a terminal sends for each arrow key.
var arrows = map[grid.Dir][]byte{grid.Up: []byte("\x1b[A"), grid.Down: []byte("\x1b[B"), grid.Right: []byte("\x1b[C"), grid.Left: []byte("\x1b[D")}

func (p *termPlayer) meter() *wire.Meter      { return p.ts.p.Wire }
func (p *termPlayer) session() client.Session { return p.ts.get() }
func (p *termPlayer) press(d grid.Dir) error  { return p.send(arrows[d]) }
func (p *termPlayer) close() {
	p.closer()
	<-p.done
}

// awaitPlayer waits for the session the front end starts for a client.
func (st *stack) awaitPlayer(ctx context.Context) (*termSession, error) {
	ctx, cancel := context.WithTimeout(ctx, hangGuard)
	defer cancel()
	select {
	case ts := <-st.started:
		if ts.p.Wire == nil {
			return nil, errors.New("the session has no counters")
		}
		return ts, nil
	case <-ctx.Done():
		return nil, errors.New("no session started in time")
	}
}

func (st *stack) openSSH(ctx context.Context) (player, error) {
	cfg := &gossh.ClientConfig{User: "ssh", Timeout: hangGuard,
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), // our own server, just started
		Auth:            []gossh.AuthMethod{gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })}}
	c, err := gossh.Dial("tcp", st.sshAddr, cfg)
	if err != nil {
		return nil, err
	}
	sess, err := c.NewSession()
	if err != nil {
		c.Close()
		return nil, err
	}
	in, err := sess.StdinPipe()
	out, err2 := sess.StdoutPipe()
	if err = errors.Join(err, err2, sess.RequestPty(st.opts.Term, 24, 80, gossh.TerminalModes{}), sess.Shell()); err != nil {
		c.Close()
		return nil, err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		io.Copy(io.Discard, out)
	}()
	p, err := st.awaitPlayer(ctx)
	if err != nil {
		c.Close()
		<-done
		return nil, err
	}
	return &termPlayer{ts: p, done: done,
		send:   func(b []byte) error { _, err := in.Write(b); return err },
		closer: func() { c.Close() }}, nil
}

func (st *stack) openWeb(ctx context.Context) (player, error) {
	addr := st.webAddr
	dctx, cancel := context.WithTimeout(ctx, hangGuard)
	defer cancel()
	h := http.Header{}
	h.Set("Origin", "http://"+addr)
	c, _, err := websocket.Dial(dctx, "ws://"+addr+"/ws", &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		return nil, err
	}
	c.SetReadLimit(1 << 20)
	id := make([]byte, 16)
	rand.Read(id)
	hello, _ := json.Marshal(map[string]any{"name": "web", "id": hex.EncodeToString(id), "path": "/", "cols": 80, "rows": 24})
	if err := c.Write(dctx, websocket.MessageText, hello); err != nil {
		c.CloseNow()
		return nil, err
	}
	done := make(chan struct{})
	go func() { // the page reads everything, and answers pings as it reads
		defer close(done)
		for {
			if _, _, err := c.Read(context.Background()); err != nil {
				return
			}
		}
	}()
	p, err := st.awaitPlayer(ctx)
	if err != nil {
		c.CloseNow()
		<-done
		return nil, err
	}
	return &termPlayer{ts: p, done: done,
		send:   func(b []byte) error { return c.Write(context.Background(), websocket.MessageBinary, b) },
		closer: func() { c.Close(websocket.StatusNormalClosure, "") }}, nil
}
