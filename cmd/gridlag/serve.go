package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"strings"

	"github.com/charmbracelet/log"
	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/client/tcp"
	"gridlag/front"
	"gridlag/internal/cli"
	"gridlag/internal/names"
	"gridlag/internal/perception"
	"gridlag/ops/host"
	"gridlag/server"
	"gridlag/tui"
)

var (
	serveCommand = &command{name: "serve", usage: "[-addr :7777] [-ssh :2222] [-web :8080] [flags]",
		does:  "a server for players over TCP, SSH and the web (on Agones too)",
		build: serverBuild(false), head: serveHead}
	teachCommand = &command{name: "teach", args: "ROOM", usage: "[-ssh :2222] [-teachers FILE] [flags]", least: 1, most: 1,
		missing: "the room to teach is missing: gridlag teach ROOM",
		does:    "a server, and this terminal teaches its room ROOM",
		build:   serverBuild(true), head: teachHead}
)

// serverFlags are the flags of serve and teach: the host's, and the
// log's; teach's teacher has a name.
type serverFlags struct {
	fs      *cli.FlagSet
	teach   bool
	host    host.Config
	name    string              // the teacher's
	test    perception.Settings // the teacher's runs of the perception test
	logPath string
	debug   bool
}

// serverBuild builds the flags of serve (teach false) or teach: every
// package's the host runs, and the log's; serve's Agones side.
func serverBuild(teach bool) func(io.Writer) (*cli.FlagSet, func([]string) error) {
	return func(io.Writer) (*cli.FlagSet, func([]string) error) {
		name := "gridlag serve"
		if teach {
			name = "gridlag teach"
		}
		f := &serverFlags{teach: teach, fs: cli.New(name)}
		fs := f.fs
		if teach {
			fs.StringVar(&f.name, "name", defaultName(), "your `NAME` as the room's teacher (1-16 printable characters)")
			fs.Check(func() error {
				if err := names.CheckPlayer(f.name, false); err != nil {
					return fmt.Errorf("-name %q: %w", f.name, err)
				}
				return nil
			})
			f.test = perception.DefaultSettings()
			fs.Var(&f.test, "perception", "the perception test's runs the teacher starts (e): `SETTINGS` as key=value words, levels=0,50,100 (ms) repeats=N controls=N predict=on|off|both play=6s answer=10s")
		}
		f.host.SSH.HostKeyPath = defaultKeyPath()
		f.host.RegisterFlags(fs)
		f.host.RegisterServerFlags(fs)
		fs.Group(host.GroupOps)
		if teach {
			fs.StringVar(&f.logPath, "log", defaultLogPath(), "log `FILE` (the terminal is the teacher's screen)")
			fs.Check(func() error {
				if f.logPath == "-" {
					return errors.New("-log - and -teach do not go together: the terminal is the teacher's screen (logs go to a file)")
				}
				return nil
			})
		} else {
			fs.StringVar(&f.logPath, "log", "-", "log `FILE` (\"-\" = standard error)")
			f.host.Agones.Health = server.DefaultHeartbeat
			f.host.Agones.RegisterFlags(fs)
		}
		fs.BoolVar(&f.debug, "debug", false, "log at debug level")
		if teach {
			return fs, f.runTeach
		}
		return fs, f.runServe
	}
}

// start opens the log and catches the stop signals: ctx ends at the
// first, the host's configuration (the flags', the log's, the build's)
// hurries at the next. done closes the log and lets the signals go.
func (f *serverFlags) start() (ctx context.Context, c host.Config, logger *log.Logger, done func(), err error) {
	logger, closeLog, err := openLog(f.logPath, level(f.debug))
	if err != nil {
		return nil, c, nil, nil, err
	}
	ctx, hurry, stop := host.Signals(stopSignals...)
	c = f.host
	fillHost(&c, f.fs, logger)
	c.Hurry = hurry
	return ctx, c, logger, func() { stop(); closeLog() }, nil
}

// fillHost completes a host's configuration from its command line: the
// log, the build and the settings that differ from their defaults, for
// the start line, and where it keeps its state.
func fillHost(c *host.Config, fs *cli.FlagSet, logger *log.Logger) {
	b := readBuild()
	c.Logger, c.Version, c.GoVersion, c.StateDir = logger, b.String(), b.goVer, stateDir()
	c.Settings = changedSettings(fs)
}

// addressFlags are the flags of the addresses a server listens on: the
// start line names them with the address bound, not among the settings.
var addressFlags = map[string]bool{"addr": true, "ssh": true, "web": true, "metrics": true, "health": true}

// changedSettings returns the flags whose values differ from their
// defaults, as keys (the flag's name) and values in the order -help lists
// them (by name), leaving out the addresses.
func changedSettings(fs *cli.FlagSet) []any {
	var kv []any
	fs.VisitAll(func(fl *flag.Flag) {
		if v := fl.Value.String(); !addressFlags[fl.Name] && v != fl.DefValue {
			kv = append(kv, fl.Name, v)
		}
	})
	return kv
}

// runServe runs a server until a signal (or Agones's Shutdown), then
// stops it (host.Run).
func (f *serverFlags) runServe([]string) error {
	ctx, c, _, done, err := f.start()
	if err != nil {
		return err
	}
	defer done()
	return serveHost(ctx, c)
}

// serveHost runs the host as this process's (host.Run), or a test's
// stand-in.
var serveHost = func(ctx context.Context, c host.Config) error {
	ownProcess(&c)
	return host.Run(ctx, c)
}

// ownProcess gives the host what is the process's: its soft memory limit,
// as -memory-limit (or GOMEMLIMIT) says, which the start line says given
// or not, and the exit a close asked to be at once ends with if it is not
// over by then.
func ownProcess(c *host.Config) {
	if limit := c.MemoryLimit.Apply(os.Getenv("GOMEMLIMIT")); !c.MemoryLimit.Given {
		c.Settings = append(c.Settings, "memory_limit", limit)
	}
	c.Exit = os.Exit
}

// runTeach runs a server and, on this terminal, the teacher's screen of
// room args[0], over a teacher's connection into it (whoever runs the
// server teaches), until the teacher quits or a signal comes; then the
// server stops as after a signal: the students are warned for -drain (a
// second signal closes at once).
func (f *serverFlags) runTeach(args []string) error {
	room := args[0]
	if err := (front.Mode{Room: room}).Check(); err != nil {
		return f.fs.Errorf("%w", err)
	}
	ctx, c, logger, done, err := f.start()
	if err != nil {
		return err
	}
	defer done()
	ownProcess(&c)
	c.Invite = true // the teacher's screen shows where the class joins
	h, err := host.Start(c)
	if err != nil {
		return err
	}
	defer h.Close()
	screen, err := tcell.NewScreen()
	if err != nil {
		return fmt.Errorf("terminal: %w", err)
	}
	dial := func(ctx context.Context, _ string) (net.Conn, error) { return h.Server().DialTeacher(ctx, server.Own) }
	err = front.Teach(ctx, screen, room, front.Options{Addr: h.Addr(),
		Client: tcp.Options{Options: client.Options{Name: f.name}, Dial: dial, Logger: logger.WithPrefix("teacher")},
		Screen: tui.Options{LogPath: f.logPath, Title: "gridlag", Invite: h.JoinAt(room), JoinCode: h.JoinCode, Logger: logger.WithPrefix("tui"), Stop: ctx.Done(), Perception: f.test},
		Log:    logger,
	})
	if err != nil {
		logger.Error("teacher's screen", "err", err)
	}
	if c.Drain > 0 {
		fmt.Fprintf(os.Stderr, "gridlag: stopping the server: the students are warned for %v (Ctrl-C stops it at once)\n", c.Drain)
	}
	why := []any{"reason", "the teacher quit"}
	if ctx.Err() != nil {
		why = host.Why(ctx)
	}
	h.Stop(why...)
	return err
}

// serveHead is the head of serve's -help.
func serveHead(w io.Writer) {
	fmt.Fprint(w, `Runs a server without a terminal: players join over TCP (gridlag play
HOST:PORT), over SSH (-ssh; ssh -p 2222 HOST) and in a browser (-web).
On SIGTERM or Ctrl-C the players are warned and play on for -drain; a
second signal closes at once. Logs go to standard error unless -log.
`)
}

// teachHead is the head of teach's -help.
func teachHead(w io.Writer) {
	fmt.Fprintf(w, `Runs a server, as gridlag serve does, and this terminal teaches its room
ROOM: the room's board, its network's switches and its students.
Students join with gridlag play HOST:PORT -room ROOM, or over SSH
(ssh -t -p 2222 HOST room ROOM); other teachers with -teachers FILE and
ssh -t -p 2222 HOST teach ROOM. Quitting stops the server as a signal
does (-drain). Logs go to the log file.

Keys while teaching:
  %s

Flags:
`, strings.Join(tui.TeachKeyHelp(), "\n  "))
}
