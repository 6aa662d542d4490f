package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"gridlag/internal/doctest"
	"gridlag/ops/host"

	"gridlag/server/admit/admittest"
)

// readmeCommand is a gridlag command the documentation shows: its
// arguments (after bin/gridlag, or make run's ARGS), and the output the
// page shows after it, if any.
type readmeCommand struct {
	args   []string
	output string // "" when the page shows none
	page   string // the page that shows it: "README.md", "docs/lab.md"
	line   int    // where the page shows it
}

func (c readmeCommand) String() string {
	return fmt.Sprintf("%s:%d: gridlag %s", c.page, c.line, strings.Join(c.args, " "))
}

// readmeCommands finds every gridlag command in the documentation,
// README.md and docs/*.md: "$ bin/gridlag ..." lines of any block, with
// the lines after them as their output; "bin/gridlag ..." lines of sh
// blocks (without their comments); and inline `bin/gridlag ...` and
// `make run ARGS="..."`. Placeholders (HOST) become 127.0.0.1.
func readmeCommands(t *testing.T) []readmeCommand {
	t.Helper()
	var cmds []readmeCommand
	for _, page := range doctest.Pages(t) {
		cmds = append(cmds, pageCommands(t, page)...)
	}
	return cmds
}

// pageCommands finds the gridlag commands of one page (see
// readmeCommands).
func pageCommands(t *testing.T, page doctest.Page) []readmeCommand {
	t.Helper()
	var (
		cmds  []readmeCommand
		fence string // "" outside a block, else its opening line
		last  = -1   // the "$ " command whose output is being read
	)
	add := func(line int, text string) {
		args := shellWords(t, strings.ReplaceAll(text, "HOST", "127.0.0.1"))
		cmds = append(cmds, readmeCommand{args: args, page: page.Path, line: line})
	}
	inline := regexp.MustCompile("`(bin/gridlag [^`]*|make run ARGS=[^`]*)`")
	for i, line := range page.Lines() {
		n := i + 1
		switch {
		case strings.HasPrefix(line, "```"):
			if fence == "" {
				fence = line
			} else {
				fence, last = "", -1
			}
		case fence != "" && strings.HasPrefix(line, "$ bin/gridlag "):
			add(n, strings.TrimPrefix(line, "$ bin/gridlag "))
			last = len(cmds) - 1
		case fence != "" && strings.HasPrefix(line, "$ "):
			last = -1
		case fence != "" && last >= 0:
			cmds[last].output += line + "\n"
		case fence == "```sh" && strings.HasPrefix(line, "bin/gridlag "):
			text, _, _ := strings.Cut(strings.TrimPrefix(line, "bin/gridlag "), "  #")
			add(n, text)
		case fence == "":
			for _, m := range inline.FindAllStringSubmatch(line, -1) {
				text := strings.TrimPrefix(m[1], "bin/gridlag ")
				if args, ok := strings.CutPrefix(text, "make run ARGS="); ok {
					text = strings.Join(shellWords(t, args), " ")
					if strings.Contains(args, `"Ada L"`) {
						text = `-name "Ada L"`
					}
				}
				add(n, text)
			}
		}
	}
	return cmds
}

// shellWords splits s as a shell does its words, with "..." and '...'
// quoting.
func shellWords(t *testing.T, s string) []string {
	t.Helper()
	var (
		words []string
		word  strings.Builder
		quote rune
		in    bool
	)
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			word.WriteRune(r)
		case r == '"' || r == '\'':
			quote, in = r, true
		case r == ' ' || r == '\t':
			if in {
				words = append(words, word.String())
				word.Reset()
				in = false
			}
		default:
			word.WriteRune(r)
			in = true
		}
	}
	if quote != 0 {
		t.Fatalf("unclosed quote in %q", s)
	}
	if in {
		words = append(words, word.String())
	}
	return words
}

// masked is text with every number, with its unit, made '#': what stays
// the same from one run to the next of a measurement.
func masked(text string) string {
	return numberWithUnit.ReplaceAllString(text, "#")
}

var numberWithUnit = regexp.MustCompile(`\d+([.,]\d+)*(ns|us|µs|ms|s|%)?`)

// TestReadmeCommandsRun: every gridlag command the documentation shows
// (README.md and docs/*.md) is run,
// or, where it needs a terminal or runs until stopped, has its flags
// checked: the scenario timelines print what the page shows, the lab's
// flags build a lab, bots and load run against a server with the default
// flags and print the summary the page shows (the same lines and words;
// the measured numbers differ from run to run, not the players
// welcomed), the servers (serve) start, and the other commands' flags
// (play, watch, lobby, teach, make run's ARGS) parse.
func TestReadmeCommandsRun(t *testing.T) {
	cmds := readmeCommands(t)
	if len(cmds) < 25 {
		t.Fatalf("found only %d commands in the documentation", len(cmds))
	}
	var game *host.Host
	gameAddr := func() string {
		if game == nil {
			var err error
			if game, err = startGame(parseGame(t, "serve", "-addr", "127.0.0.1:0"), io.Discard, nil); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(game.Close)
		}
		return game.Addr()
	}
	// The files the commands write and read (a.rec, a.svg) are in one
	// directory of the test's, in the order of the pages.
	dir := t.TempDir()
	file := regexp.MustCompile(`^[a-z0-9-]+\.(rec|svg|cast|png)$`)
	for _, c := range cmds {
		for i, a := range c.args {
			if file.MatchString(a) {
				c.args[i] = filepath.Join(dir, a)
			}
		}
		t.Run(fmt.Sprintf("%s:%d", c.page, c.line), func(t *testing.T) {
			var out bytes.Buffer
			var err error
			switch c.args[0] {
			case "scenario":
				err = scenarioMain(c.args[1:], &out)
			case "replay":
				if !slices.ContainsFunc(c.args, func(a string) bool { return a == "-json" || a == "-table" || a == "-svg" }) {
					t.Skip("opens the replay's screen")
				}
				err = replayMain(c.args[1:], &out)
			case "lab":
				_, _, err = newLab(c.args[1:], io.Discard, time.Now)
			case "bots", "load":
				if testing.Short() {
					t.Skip("runs for seconds")
				}
				args := strings.Join(c.args, "\x00")
				args = strings.ReplaceAll(args, "127.0.0.1:7777", gameAddr())
				if c.args[0] == "load" {
					// The players' welcomes wait as long as the hang
					// guard: a machine busy with other processes may
					// take more than the 10 s a load run gives them.
					args += "\x00-handshake-timeout\x00" + admittest.Hung.String()
				}
				err = run(strings.Split(args, "\x00"), &out)
			case "version":
				err = run(c.args, &out)
			default:
				var inv *invocation
				if inv, err = parse(c.args, io.Discard); err == nil && inv.cmd == serveCommand {
					err = startReadmeServer(t, c.args)
				}
			}
			if exitCode(err) != 0 { // -help is fine
				t.Fatalf("%v: %v\n%s", c, err, out.String())
			}
			switch c.args[0] {
			case "scenario", "replay", "version", "bots", "load":
			default:
				return // a game mode: a server started and closed, a player's only parsed; what it logs is another test's (TestReadmeStartAndSummaryLines)
			}
			switch {
			case c.output == "":
			case c.args[0] == "scenario" || c.args[0] == "replay" || c.args[0] == "version":
				if out.String() != c.output {
					t.Errorf("%v prints\n%s\nthe page shows\n%s", c, out.String(), c.output)
				}
			default:
				got, want := out.String(), c.output
				first, _, _ := strings.Cut(want, "\n")
				if c.args[0] == "load" && !strings.HasPrefix(got, first+"\n") || masked(got) != masked(want) {
					t.Errorf("%v prints\n%s\nthe page shows\n%s", c, got, want)
				}
			}
		})
	}
}

// startReadmeServer starts the server of a documented command (serve, or
// the old form -server), its addresses on loopback and its files in the
// test's directory, then closes it.
func startReadmeServer(t *testing.T, args []string) error {
	t.Helper()
	c := parseGame(t, args...)
	c.Addr = "127.0.0.1:0"
	for _, a := range []*string{&c.SSHAddr, &c.WebAddr, &c.MetricsAddr, &c.HealthAddr} {
		if *a != "" {
			*a = "127.0.0.1:0"
		}
	}
	c.SSH.HostKeyPath = filepath.Join(t.TempDir(), "key")
	if c.Teachers != "" { // a class's keys: none yet
		c.Teachers = filepath.Join(t.TempDir(), "teachers")
		if err := os.WriteFile(c.Teachers, []byte("# the class of 3B\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	h, err := startGame(c, io.Discard, nil)
	if err != nil {
		return err
	}
	joinGame(t, h.Addr())
	h.Close()
	return nil
}

// TestReadmeRefusalOfALongTimeline: the refusal the documentation quotes
// is the one gridlag scenario gives.
func TestReadmeRefusalOfALongTimeline(t *testing.T) {
	err := scenarioMain([]string{"-until", "100h", "-rate", "1000"}, io.Discard)
	if err == nil || !doctest.Says(t, "`"+err.Error()+"`") {
		t.Errorf("gridlag scenario -until 100h -rate 1000 says %v, which the documentation does not quote", err)
	}
}

// scenarioMain runs gridlag scenario with args, printing to out.
func scenarioMain(args []string, out io.Writer) error {
	return run(append([]string{"scenario"}, args...), out)
}

// replayMain runs gridlag replay with args, printing to out.
func replayMain(args []string, out io.Writer) error {
	return run(append([]string{"replay"}, args...), out)
}
