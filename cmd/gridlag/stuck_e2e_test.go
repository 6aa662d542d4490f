package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"
	gossh "golang.org/x/crypto/ssh"

	"gridlag/front/remote"
	"gridlag/server/admit/admittest"
)

// badBytes are the inputs a client sent in the reproductions of issue 30
// (one invalid UTF-8 byte, three, a lone lead byte then a key): each
// pinned a core of the server for ever, the session never ending, before
// the session's input was filtered (remote's inputFilter).
var badBytes = []string{"\xff", "\xff\xfe\xfd", "\xc3j"}

// probedServer is gridlag -server run as a process with its SSH and web
// front ends, its metrics and its profiler, which the tests read the
// process's goroutines from.
type probedServer struct {
	cmd                       *exec.Cmd
	dir                       string
	sshAddr, webAddr, opsAddr string
	logs                      *admittest.Log
	exited                    chan error
}

// startProbedServer builds the binary (with the build tags given, e.g.
// gridlag_rawinput) and starts it with the front ends on loopback and
// args.
func startProbedServer(t *testing.T, tags string, args ...string) *probedServer {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads the server's CPU time from /proc")
	}
	var bin string
	if tags == "" {
		bin = buildBinary(t)
	} else {
		bin = buildBinary(t, tags)
	}
	ps := &probedServer{dir: t.TempDir(), sshAddr: freeAddr(t), webAddr: freeAddr(t), opsAddr: freeAddr(t),
		logs: &admittest.Log{}, exited: make(chan error, 1)}
	ps.cmd = exec.Command(bin, append([]string{"-server", "-addr", "127.0.0.1:0", "-ssh", ps.sshAddr,
		"-ssh-key", filepath.Join(ps.dir, "host_key"), "-web", ps.webAddr, "-metrics", ps.opsAddr, "-pprof", "-summary", "0"}, args...)...)
	ps.cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+ps.dir)
	ps.cmd.Stderr = ps.logs
	if err := ps.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { ps.exited <- ps.cmd.Wait() }()
	t.Cleanup(func() {
		ps.cmd.Process.Kill()
		if t.Failed() {
			t.Logf("server log:\n%s", ps.logs)
		}
	})
	ps.waitLog(t, "its start line", "gridlag server")
	return ps
}

// waitLog waits (a hang guard of a minute) until the log holds text.
func (ps *probedServer) waitLog(t *testing.T, what, text string) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !strings.Contains(ps.logs.String(), text); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the server never logged %s (%q)", what, text)
		}
	}
}

// cpu is the CPU time the server process has used, user and system, from
// /proc (in clock ticks of 10 ms): a figure a busy machine does not
// inflate, unlike the time on the clock.
func (ps *probedServer) cpu(t *testing.T) time.Duration {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", ps.cmd.Process.Pid))
	if err != nil {
		t.Fatal(err)
	}
	// The fields after the command's name, which is in parentheses.
	fields := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+2:]))
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// goroutines is the server's goroutine dump (its profiler's, each
// goroutine's full stack), one string a goroutine.
func (ps *probedServer) goroutines(t *testing.T) []string {
	t.Helper()
	c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: time.Minute}
	resp, err := c.Get("http://" + ps.opsAddr + "/debug/pprof/goroutine?debug=2")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n\n")
}

// sessionStacks are the goroutines of the server's dump that belong to a
// remote session: the terminal's (tcell's), the session's own (package
// remote's, a front end's session handler), the interface's.
func sessionStacks(dump []string) []string {
	var held []string
	for _, g := range dump {
		for _, frame := range []string{"gdamore/tcell", "gridlag/remote.", "gridlag/tui.", "gridlag/sshd.(*Server).handleSession", "gridlag/web.(*socket)"} {
			if strings.Contains(g, frame) {
				held = append(held, g)
				break
			}
		}
	}
	return held
}

// settled waits (a hang guard of a minute) until the server runs no
// session's goroutine and no more goroutines than baseline, and returns
// how many it runs; it fails with the session's stacks if that never
// happens.
func (ps *probedServer) settled(t *testing.T, baseline int) int {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		dump := ps.goroutines(t)
		held := sessionStacks(dump)
		if len(held) == 0 && len(dump) <= baseline {
			return len(dump)
		}
		if time.Now().After(deadline) {
			t.Fatalf("a minute after the clients went the server runs %d goroutines (%d before they came), %d of them a session's:\n%s",
				len(dump), baseline, len(held), strings.Join(held, "\n\n"))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// idleBaseline waits until the server's goroutines stop changing (the
// start's own settle) and returns their number.
func (ps *probedServer) idleBaseline(t *testing.T) int {
	t.Helper()
	last := -1
	for range 100 {
		n := len(ps.goroutines(t))
		if n == last {
			return n
		}
		last = n
		time.Sleep(100 * time.Millisecond)
	}
	return last
}

// cpuWindow is how long the server's CPU is watched once the clients went.
const cpuWindow = 5 * time.Second

// afterClientsWent checks what the server holds once its clients went:
// the CPU it uses over cpuWindow at most 2 % of a core, then no
// goroutine of a session and no more goroutines than before they came.
func (ps *probedServer) afterClientsWent(t *testing.T, baseline int) {
	t.Helper()
	c0 := ps.cpu(t)
	time.Sleep(cpuWindow)
	used := ps.cpu(t) - c0
	share := float64(used) / float64(cpuWindow) * 100
	t.Logf("CPU over the %v after the clients went: %v (%.1f %% of a core)", cpuWindow, used, share)
	if share > 2 {
		t.Errorf("the server used %v of CPU over the %v after the clients went (%.1f %% of a core), want at most 2 %%", used, cpuWindow, share)
	}
	n := ps.settled(t, baseline)
	t.Logf("goroutines: %d before the clients came, %d after they went", baseline, n)
}

// opensshClient is the real OpenSSH client on a terminal it forces (-tt),
// its input a pipe the test writes.
type opensshClient struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *admittest.Log
	exited chan error
}

func startOpenSSH(t *testing.T, addr, user string) *opensshClient {
	t.Helper()
	if _, err := exec.LookPath("ssh"); err != nil {
		t.Skip("the test needs the OpenSSH client, which is not installed (.ci/run installs it)")
	}
	host, port, _ := strings.Cut(addr, ":")
	sc := &opensshClient{out: &admittest.Log{}, exited: make(chan error, 1)}
	sc.cmd = exec.Command("ssh", "-F", "/dev/null", "-tt", "-p", port, "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
		"-o", "LogLevel=ERROR", "-o", "PubkeyAuthentication=no", "-o", "PasswordAuthentication=no", user+"@"+host)
	in, err := sc.cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	sc.in = in
	sc.cmd.Stdout, sc.cmd.Stderr = sc.out, sc.out
	if err := sc.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { sc.exited <- sc.cmd.Wait() }()
	t.Cleanup(func() { sc.cmd.Process.Kill() })
	return sc
}

// waitOutput waits (a hang guard of a minute) until the client's
// terminal got text.
func (sc *opensshClient) waitOutput(t *testing.T, text string) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !strings.Contains(sc.out.String(), text); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the ssh client never showed %q; it shows:\n%q", text, sc.out.String())
		}
	}
}

// TestBadBytesOverSSHLeaveNothing is issue 30's first reproduction over
// SSH, with the real OpenSSH client: a player on a forced terminal types
// one invalid UTF-8 byte (or three, or a lone lead byte then a key), and
// their input ends. Each session ends and the client exits; over the 5 s
// after the clients went the server uses at most 2 % of a core, and it
// runs no goroutine of theirs and no more goroutines than before they
// came. Before the fix each session spun tcell's input loop for ever (a
// core busy, five goroutines and a file descriptor kept).
func TestBadBytesOverSSHLeaveNothing(t *testing.T) {
	ps := startProbedServer(t, "")
	baseline := ps.idleBaseline(t)
	var clients []*opensshClient
	for i, b := range badBytes {
		sc := startOpenSSH(t, ps.sshAddr, fmt.Sprintf("byte%d", i))
		sc.waitOutput(t, "gridlag over ssh")
		if _, err := io.WriteString(sc.in, b); err != nil {
			t.Fatal(err)
		}
		clients = append(clients, sc)
	}
	time.Sleep(500 * time.Millisecond) // the bytes reach the screens before the input ends
	for _, sc := range clients {
		sc.in.Close()
	}
	for i, sc := range clients {
		select {
		case err := <-sc.exited:
			t.Logf("ssh client of %q exited: %v", badBytes[i], err)
		case <-time.After(time.Minute): // a hang guard
			t.Errorf("the session of %q did not end a minute after its input did", badBytes[i])
			sc.cmd.Process.Kill()
			<-sc.exited
		}
	}
	ps.afterClientsWent(t, baseline)
}

// webTab is a test's page: its WebSocket, as the page opens it.
type webTab struct {
	c *websocket.Conn
}

// openWebTab opens the page's WebSocket, says hello as name on a cols x
// rows terminal, and waits for the screen's first bytes.
func openWebTab(t *testing.T, addr, name string, cols, rows int) *webTab {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws://"+addr+"/ws", &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"http://" + addr}}})
	if err != nil {
		t.Fatalf("websocket: %v", err)
	}
	t.Cleanup(func() { c.CloseNow() })
	c.SetReadLimit(1 << 22)
	id := hex.EncodeToString([]byte(fmt.Sprintf("%-16.16s", name)))
	hello := fmt.Sprintf(`{"name":%q,"id":%q,"path":"/","cols":%d,"rows":%d}`, name, id, cols, rows)
	if err := c.Write(ctx, websocket.MessageText, []byte(hello)); err != nil {
		t.Fatal(err)
	}
	for {
		typ, _, err := c.Read(ctx)
		if err != nil {
			t.Fatalf("the page of %s got no screen: %v", name, err)
		}
		if typ == websocket.MessageBinary {
			break
		}
	}
	// The rest of the screen is read and thrown away, as a page shows it.
	go func() {
		for {
			if _, _, err := c.Read(context.Background()); err != nil {
				return
			}
		}
	}()
	return &webTab{c: c}
}

// send sends keys as the page does: a binary message.
func (wt *webTab) send(t *testing.T, keys string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := wt.c.Write(ctx, websocket.MessageBinary, []byte(keys)); err != nil {
		t.Fatalf("send %q: %v", keys, err)
	}
}

// TestBadBytesOverTheWebLeaveNothing is issue 30's first reproduction on
// the web: after the page's hello, a binary key message holding one
// invalid UTF-8 byte (or three, or a lone lead byte then a key), then the
// page goes. Over the 5 s after the pages went the server uses at most
// 2 % of a core, and it runs no goroutine of theirs and no more
// goroutines than before they came.
func TestBadBytesOverTheWebLeaveNothing(t *testing.T) {
	ps := startProbedServer(t, "")
	baseline := ps.idleBaseline(t)
	var tabs []*webTab
	for i, b := range badBytes {
		tab := openWebTab(t, ps.webAddr, fmt.Sprintf("byte%d", i), 100, 40)
		tab.send(t, b)
		tabs = append(tabs, tab)
	}
	time.Sleep(500 * time.Millisecond) // the bytes reach the screens before the pages go
	for _, tab := range tabs {
		tab.c.CloseNow()
	}
	ps.afterClientsWent(t, baseline)
}

// openSSHSession opens a session with a terminal as user over SSH (Go's
// client, keyboard-interactive) and returns once the screen drew.
func openSSHSession(t *testing.T, addr, user string) {
	t.Helper()
	cfg := &gossh.ClientConfig{User: user, HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: time.Minute,
		Auth: []gossh.AuthMethod{gossh.KeyboardInteractive(func(string, string, []string, []bool) ([]string, error) { return nil, nil })}}
	c, err := gossh.Dial("tcp", addr, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("xterm-256color", 24, 80, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	out, err := sess.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	// The screen's first bytes, then the rest read and thrown away.
	if _, err := out.Read(make([]byte, 1)); err != nil {
		t.Fatalf("the session of %s drew nothing: %v", user, err)
	}
	go io.Copy(io.Discard, out)
}

// exitAfter waits for the server to exit (a hang guard of a minute) and
// returns how long after since it took, and its error.
func (ps *probedServer) exitAfter(t *testing.T, since time.Time) (time.Duration, error) {
	t.Helper()
	select {
	case err := <-ps.exited:
		return time.Since(since), err
	case <-time.After(time.Minute):
		t.Fatalf("the server has not exited a minute after it was asked to")
		return 0, nil
	}
}

// stuckSessions starts a server built with the tag gridlag_stuck, on
// which sessions of the player "stuck" never end, with args, and opens
// one such session on each front end, and an honest one on each.
func stuckSessions(t *testing.T, args ...string) *probedServer {
	t.Helper()
	ps := startProbedServer(t, "gridlag_stuck", args...)
	openSSHSession(t, ps.sshAddr, "stuck")
	openWebTab(t, ps.webAddr, "stuck", 80, 24)
	openSSHSession(t, ps.sshAddr, "ada")
	openWebTab(t, ps.webAddr, "bob", 80, 24)
	return ps
}

// TestSIGTERMWithAStuckSessionExits: SIGTERM with a session that will not
// end on each front end (and an honest player on each): the server
// drains (1 s here), closes, leaves the stuck sessions behind after the
// grace period, saying so, and exits with status 0, within the drain plus
// the grace (reported; the hang guard is a minute). Before issue 30's fix
// it waited for ever in remote.AwaitSessions.
func TestSIGTERMWithAStuckSessionExits(t *testing.T) {
	ps := stuckSessions(t, "-drain", "1s")
	sent := time.Now()
	ps.cmd.Process.Signal(syscall.SIGTERM)
	took, err := ps.exitAfter(t, sent)
	bound := time.Second + remote.CloseGrace + remote.CutGrace
	t.Logf("SIGTERM to exit: %v (drain 1s + grace %v = %v)", took, remote.CloseGrace+remote.CutGrace, bound)
	if err != nil {
		t.Errorf("exit: %v, want status 0", err)
	}
	for _, front := range []string{"ssh", "web"} {
		if !strings.Contains(ps.logs.String(), front+" sessions did not end after their connections were closed; leaving them behind") {
			t.Errorf("the log does not say the %s session was left behind", front)
		}
	}
}

// TestSecondSIGTERMWithAStuckSessionExitsAtOnce: with a session that will
// not end on each front end, a second SIGTERM during an hour's drain
// closes at once: the process exits (within a second of it, as the README
// says: reported, with a hang guard of a minute).
func TestSecondSIGTERMWithAStuckSessionExitsAtOnce(t *testing.T) {
	ps := stuckSessions(t, "-drain", "1h")
	ps.cmd.Process.Signal(syscall.SIGTERM)
	ps.waitLog(t, "the drain's start", "shutting down")
	sent := time.Now()
	ps.cmd.Process.Signal(syscall.SIGTERM)
	took, err := ps.exitAfter(t, sent)
	t.Logf("second SIGTERM to exit: %v (exit %v)", took, err)
	if !strings.Contains(ps.logs.String(), "second signal, closing at once") {
		t.Errorf("the log does not say why it closed at once")
	}
}
