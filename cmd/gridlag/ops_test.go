package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/log"

	"gridlag/internal/doctest"
	"gridlag/ops/host"
	"gridlag/ops/metrics"
	"gridlag/protocol"
	"gridlag/server"
	"gridlag/server/admit/admittest"
	"gridlag/server/world"
)

// parseGame parses a server's command line as gridlag does and returns
// its host's configuration, without starting anything.
func parseGame(t *testing.T, args ...string) host.Config {
	t.Helper()
	var c host.Config
	served := false
	serveHost = func(_ context.Context, parsed host.Config) error { c, served = parsed, true; return nil }
	defer func() { serveHost = host.Run }()
	if err := run(args, io.Discard); err != nil {
		t.Fatalf("gridlag %s: %v", strings.Join(args, " "), err)
	}
	if !served {
		t.Fatalf("gridlag %s: not a server", strings.Join(args, " "))
	}
	return c
}

// startGame starts c's services, logging to logs, with hook (if any)
// completing the server's options.
func startGame(c host.Config, logs io.Writer, hook func(*server.Options)) (*host.Host, error) {
	c.Addr, c.Logger, c.Hook = "127.0.0.1:0", log.New(logs), hook
	return host.Start(c)
}

// webURLs returns the URLs of the addresses the start line in logs gives
// for the flags named.
func webURLs(t *testing.T, logs string, flags ...string) []string {
	t.Helper()
	var urls []string
	for _, name := range flags {
		m := regexp.MustCompile(`INFO gridlag server .* ` + name + `=(\S+)`).FindStringSubmatch(logs)
		if m == nil {
			t.Fatalf("the start line names no -%s address:\n%s", name, logs)
		}
		urls = append(urls, "http://"+m[1])
	}
	return urls
}

// probe GETs url and returns the status code and the body.
func probe(url string) (int, string, error) { return admittest.Get(url) }

// TestHealthThroughStartStallAndDrain polls /healthz and /readyz, on
// -metrics and on -health, through a game's start, a world stuck (in the
// OnEvent hook, on a join: the heartbeat stops), its recovery and a drain,
// and checks each answer's code and text.
func TestHealthThroughStartStallAndDrain(t *testing.T) {
	f := parseGame(t, "-server", "-metrics", "127.0.0.1:0", "-health", "127.0.0.1:0", "-summary", "0")
	stuck, release := make(chan struct{}), make(chan struct{})
	released := false
	defer func() {
		if !released {
			close(release)
		}
	}()
	hook := func(o *server.Options) {
		o.HeartbeatInterval = 20 * time.Millisecond
		o.OnEvent = func(ev world.Event) {
			if ev.Kind == world.EventJoin && ev.Name == "stuck" {
				close(stuck)
				<-release
			}
		}
	}
	logs := &admittest.Log{}
	g, err := startGame(f, logs, hook)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	urls := webURLs(t, logs.String(), "metrics", "health")
	// expect polls path on both addresses until it answers code with a
	// text starting with text; before that, only the answers in passing
	// may come.
	expect := func(when, path string, code int, text string, passing ...string) {
		t.Helper()
		for _, base := range urls {
			var (
				got  int
				body string
			)
			admittest.Eventually(t, func() bool {
				var err error
				got, body, err = probe(base + path)
				if err != nil {
					t.Fatalf("%s: GET %s%s: %v", when, base, path, err)
				}
				if got == code && strings.HasPrefix(body, text) && strings.HasSuffix(body, "\n") {
					return true
				}
				ok := false
				for _, p := range passing {
					ok = ok || strings.HasPrefix(fmt.Sprint(got, " ", body), p)
				}
				if !ok {
					t.Fatalf("%s: GET %s%s answered %d %q, want %d %q", when, base, path, got, body, code, text)
				}
				return false
			}, func() string {
				return fmt.Sprintf("%s: GET %s%s answered %d %q, want %d %q", when, base, path, got, body, code, text)
			})
		}
	}
	notYet := "503 not serving"
	expect("start", "/healthz", 200, "ok", notYet)
	expect("start", "/readyz", 200, "ready: 0 of 1000 players", notYet)

	ada := joinGame(t, g.Addr())
	expect("ada playing", "/readyz", 200, "ready: 1 of 1000 players", "200 ready: 0 of 1000 players")

	nc, err := net.Dial("tcp", g.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	if err := protocol.NewEncoder(nc).Encode(&protocol.Hello{Version: protocol.Version, Name: "stuck"}); err != nil {
		t.Fatal(err)
	}
	<-stuck
	expect("stalled", "/healthz", 503, "stalled: the world's last heartbeat was ", "200 ok")
	expect("stalled", "/readyz", 503, "stalled: ", "200 ready")

	close(release)
	released = true
	expect("going again", "/healthz", 200, "ok", "503 stalled")
	expect("going again", "/readyz", 200, "ready: 2 of 1000 players", "503 stalled", "200 ready: 1 of")

	g.Server().Drain(10 * time.Second)
	expect("draining", "/readyz", 503, "draining: server stopping in ")
	expect("draining", "/healthz", 200, "ok")
	ada.until("the drain's Notice", func(m protocol.Message) bool { _, ok := m.(*protocol.Notice); return ok })

	g.Close()
	for _, base := range urls {
		if code, body, err := probe(base + "/healthz"); err == nil {
			t.Errorf("after close: GET %s/healthz answered %d %q", base, code, body)
		}
	}
}

// TestOneStartLine: a server logs one start line naming its version, the
// addresses it listens on and the settings that differ from their
// defaults, each by its flag's name, and no other line of settings.
func TestOneStartLine(t *testing.T) {
	f := parseGame(t, "-server", "-metrics", "127.0.0.1:0", "-rate", "30", "-max-players", "200", "-move-time", "100ms",
		"-ssh", "127.0.0.1:0", "-ssh-key", filepath.Join(t.TempDir(), "key"), "-summary", "0", "-drain", "0s")
	logs := &admittest.Log{}
	g, err := startGame(f, logs, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	joinGame(t, g.Addr()) // the game port serves: its listen line, if any, came before
	lines := strings.Split(strings.TrimSpace(logs.String()), "\n")
	var starts []string
	for _, l := range lines {
		if strings.Contains(l, "listening") || strings.Contains(l, "rate=") {
			starts = append(starts, l)
		}
	}
	key := `SHA256:[A-Za-z0-9+/]+`
	want := regexp.MustCompile(`^INFO gridlag server version=` + regexp.QuoteMeta(readBuild().String()) + ` go=go\S+ ` +
		`addr=127\.0\.0\.1:\d+ ssh=127\.0\.0\.1:\d+ hostkey=` + key + ` metrics=127\.0\.0\.1:\d+ ` +
		`drain=0s max-players=200 rate=30 ssh-key=\S+ summary=0s$`)
	if len(starts) != 1 || !want.MatchString(starts[0]) {
		t.Errorf("want one start line matching\n%s\ngot\n%s", want, strings.Join(starts, "\n"))
	}
}

// TestChangedSettings: the settings are those that differ from their
// defaults, whether given or not: -bots is 0 by default with -server, 3
// when playing.
func TestChangedSettings(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-server"}, "[]"},
		{[]string{"-server", "-bots", "0", "-rate", "20", "-addr", ":7000"}, "[]"},
		{[]string{"-server", "-bots", "3", "-lagcomp=false", "-map-gen", "64x32", "-seed", "7"}, "[bots 3 lagcomp false map-gen 64x32 seed 7]"},
	} {
		if got := fmt.Sprint(parseGame(t, c.args...).Settings); got != c.want {
			t.Errorf("gridlag %s: settings %s, want %s", strings.Join(c.args, " "), got, c.want)
		}
	}
}

// TestSummaryLinesOnAShortInterval: with -summary at 20ms the log gets a
// summary line each interval; the joins and leaves over the lines add up
// to the player who came and went, and the players gauge follows.
func TestSummaryLinesOnAShortInterval(t *testing.T) {
	f := parseGame(t, "-server", "-summary", "20ms", "-drain", "0s")
	logs := &admittest.Log{}
	g, err := startGame(f, logs, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	line := regexp.MustCompile(`(?m)^INFO summary players=(\d+) spectators=0 rooms=1 joins=(\d+) leaves=(\d+) tick_p50=\S+ tick_p99=\S+ bytes_out=\S+/s states_out=\S+/s writes=\S+/s writes_per_player=\S+ refused=(\S+) rss=\d\S*B heap=\d\S*B tick_cost=\S+ms budget=25ms full=[01] waiting=\d+ headroom=(?:-|\d+) line_in=\d+ line_refused=\d+ pace=\S+/s join_cost=\S+ms$`)
	waitLine := func(what string, ok func(players, joins, leaves int) bool) {
		t.Helper()
		admittest.Eventually(t, func() bool {
			joins, leaves := 0, 0
			var last []string
			for _, m := range line.FindAllStringSubmatch(logs.String(), -1) {
				var j, l int
				fmt.Sscan(m[2], &j)
				fmt.Sscan(m[3], &l)
				joins, leaves, last = joins+j, leaves+l, m
			}
			if last == nil {
				return false
			}
			var players int
			fmt.Sscan(last[1], &players)
			return ok(players, joins, leaves)
		}, func() string { return fmt.Sprintf("no summary line says %s:\n%s", what, logs) })
	}
	waitLine("an idle server", func(p, j, l int) bool { return p == 0 && j == 0 && l == 0 })
	ada := joinGame(t, g.Addr())
	waitLine("ada playing", func(p, j, l int) bool { return p == 1 && j == 1 && l == 0 })
	ada.send(&protocol.Bye{})
	waitLine("ada gone", func(p, j, l int) bool { return p == 0 && j == 1 && l == 1 })
}

// TestSummaryOff: -summary 0 logs none.
func TestSummaryOff(t *testing.T) {
	f := parseGame(t, "-server", "-summary", "0")
	logs := &admittest.Log{}
	g, err := startGame(f, logs, nil)
	if err != nil {
		t.Fatal(err)
	}
	joinGame(t, g.Addr())
	g.Close()
	if strings.Contains(logs.String(), "INFO summary") {
		t.Errorf("-summary 0 logged a summary:\n%s", logs)
	}
}

// TestOpsFlagsRefused: the operator's flags that cannot work say why.
func TestOpsFlagsRefused(t *testing.T) {
	checkRefusals(t, []refusal{
		{[]string{"-server", "-pprof"}, "-pprof serves the profiler on the -metrics address: give -metrics ADDR"},
		{[]string{"-connect", "127.0.0.1:1", "-health", ":8080"}, "with -connect there is no server here"},
		{[]string{"-connect", "127.0.0.1:1", "-metrics", ":9100"}, "with -connect there is no server here"},
		{[]string{"-server", "-summary", "1"}, "-summary 1: a duration needs a unit"},
	})
}

// TestBusyHealthAddressIsAnError: a -health address in use stops the
// start, naming the flag.
func TestBusyHealthAddressIsAnError(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	f := parseGame(t, "-server", "-health", busy.Addr().String())
	if _, err := startGame(f, io.Discard, nil); err == nil || !strings.HasPrefix(err.Error(), "-health "+busy.Addr().String()+": ") {
		t.Errorf("startGame with a busy -health: %v", err)
	}
}

// TestVersion: `gridlag version` begins with the version the start line
// names, then the build's details; a stamp (make build's) names the
// commit.
func TestVersion(t *testing.T) {
	defer func(s string) { stamp = s }(stamp)
	for _, s := range []string{"", "v0.1.0-3-gd97d394-dirty"} {
		stamp = s
		var out bytes.Buffer
		if err := run([]string{"version"}, &out); err != nil {
			t.Fatal(err)
		}
		b := readBuild()
		first, rest, _ := strings.Cut(out.String(), "\n")
		if first != "gridlag "+b.String() || !strings.HasPrefix(b.String(), version+"+") {
			t.Errorf("stamp %q: first line %q, the start line's version %q", s, first, b.String())
		}
		if !strings.Contains(rest, "  go        "+b.goVer+" ") {
			t.Errorf("stamp %q: no go line:\n%s", s, out.String())
		}
		if s != "" && (b.String() != version+"+"+s || !strings.Contains(rest, "  git       "+s+" (git describe, stamped by make build)\n")) {
			t.Errorf("stamp %q: version %q:\n%s", s, b.String(), out.String())
		}
	}
}

// TestMakeBuildStampsTheCommit: `make build` stamps the binary with what
// git describe says, and `gridlag version` shows it.
func TestMakeBuildStampsTheCommit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	for _, tool := range []string{"make", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("needs %s", tool)
		}
	}
	describe, err := exec.Command("git", "describe", "--always", "--dirty", "--tags").Output()
	if err != nil {
		t.Skipf("not in a git checkout: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "gridlag")
	mk := exec.Command("make", "-s", "build", "BIN="+bin)
	mk.Dir = filepath.Join("..", "..")
	if out, err := mk.CombinedOutput(); err != nil {
		t.Fatalf("make build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := "gridlag " + version + "+" + strings.TrimSpace(string(describe)) + "\n"; !strings.HasPrefix(string(out), want) {
		t.Errorf("gridlag version:\n%s\nwant it to begin %q", out, want)
	}
}

// TestInviteFriendsInTmux: a local game that also serves SSH says on the
// screen (its title line) and in the log what to give friends.
func TestInviteFriendsInTmux(t *testing.T) {
	t.Parallel() // the binary in a process of its own, mostly waited on: see TestMain
	if testing.Short() {
		t.Skip("end-to-end")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("needs tmux")
	}
	bin := buildBinary(t)
	state := t.TempDir()
	sshAddr := freeAddr(t)
	_, port, _ := net.SplitHostPort(sshAddr)
	invite := "ssh -p " + port + " localhost"
	tm := newTmux(t, 80, 24, fmt.Sprintf("XDG_STATE_HOME=%s %s -name ada -bots 0 -ssh %s; echo EXIT=$?; sleep 60", state, bin, sshAddr))
	tm.waitFor("friends: " + invite)
	tm.keys("q")
	tm.waitFor("EXIT=0")
	logText, err := os.ReadFile(filepath.Join(state, "gridlag", "gridlag.log"))
	if err != nil || !strings.Contains(string(logText), "INFO friends join over SSH with: "+invite+"\n") {
		t.Fatalf("log file: %v\n%s", err, logText)
	}
}

// TestReadmeStartAndSummaryLines: the start line the documentation shows
// is what gridlag logs for the command above it (the time, the build, the
// host key and the addresses bound aside, which vary), and its summary
// line is what gridlag logs for those figures.
func TestReadmeStartAndSummaryLines(t *testing.T) {
	page, at := doctest.Containing(t, "\n$ bin/gridlag serve ")
	lines := strings.Split(page.Text[at+1:], "\n")
	const i = 0 // the command's line
	if len(lines) < 2 || !strings.Contains(lines[i+1], " INFO gridlag server ") {
		t.Fatalf("%s shows no `$ bin/gridlag serve ...` followed by its start line", page.Path)
	}
	readmeStart := lines[i+1]
	j := slices.IndexFunc(lines[i:], func(l string) bool { return strings.Contains(l, " INFO summary ") })
	if j < 0 {
		t.Fatalf("%s shows no summary line after the start line", page.Path)
	}
	readmeSummary := lines[i+j]

	// The start line, logged by a game started with the page's command
	// (its addresses on loopback: what it binds is set aside).
	f := parseGame(t, strings.Fields(strings.TrimPrefix(lines[i], "$ bin/gridlag "))...)
	f.Addr, f.SSH.HostKeyPath = "127.0.0.1:0", filepath.Join(t.TempDir(), "key")
	for _, a := range []*string{&f.SSHAddr, &f.MetricsAddr, &f.HealthAddr} {
		if *a != "" {
			*a = "127.0.0.1:0"
		}
	}
	var logs bytes.Buffer
	f.Logger = log.NewWithOptions(&logs, logOptions(log.InfoLevel))
	g, err := host.Start(f)
	if err != nil {
		t.Fatal(err)
	}
	g.Close()
	start := regexp.MustCompile(`(?m)^.* INFO gridlag server .*$`).FindString(logs.String())
	varying := regexp.MustCompile(`^\d{4}/\d\d/\d\d \d\d:\d\d:\d\d |\b(version|go|hostkey|addr|ssh|metrics|health)=\S+`)
	// serveMain adds the memory limit it set (the machine's), which a
	// game started here does not set.
	limit := regexp.MustCompile(` memory_limit="[^"]*"`)
	aside := func(line string) string { return varying.ReplaceAllString(limit.ReplaceAllString(line, ""), "<$1>") }
	if aside(start) != aside(readmeStart) {
		t.Errorf("gridlag %s logs\n%s\n%s shows\n%s", strings.Join(strings.Fields(lines[i])[2:], " "), start, page.Path, readmeStart)
	}
	if v := regexp.MustCompile(` version=(\S+) `).FindStringSubmatch(readmeStart); v == nil || !strings.HasPrefix(v[1], version+"+") {
		t.Errorf("%s's start line names version %v, want %s+COMMIT", page.Path, v, version)
	}

	// The summary line, logged for the page's figures at its time.
	when, err := time.ParseInLocation("2006/01/02 15:04:05", readmeSummary[:19], time.Local)
	if err != nil {
		t.Fatal(err)
	}
	opts := logOptions(log.InfoLevel)
	opts.TimeFunction = func(time.Time) time.Time { return when }
	var out bytes.Buffer
	host.LogSummary(log.NewWithOptions(&out, opts), metrics.Summary{
		Players: 8, Rooms: 1, Joins: 11, Leaves: 3, TickP50: 0.0001, TickP99: 0.0005,
		BytesOut: 7780, StatesOut: 251, Writes: 262, WritesPerMember: 32.75, Refused: []metrics.Count{{Kind: "malformed", N: 3}},
		RSS: 41_200_000, HeapInUse: 14_600_000,
	})
	if got := strings.TrimSuffix(out.String(), "\n"); got != readmeSummary {
		t.Errorf("gridlag logs\n%s\n%s shows\n%s", got, page.Path, readmeSummary)
	}
}
