package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/client/tcp"
	"gridlag/front"
	"gridlag/internal/cli"
	"gridlag/internal/names"
	"gridlag/internal/wire"
	"gridlag/lab/record"
	"gridlag/ops/host"
	"gridlag/protocol"
	"gridlag/tui"
)

var (
	playCommand = &command{name: "play", args: "[HOST:PORT]", usage: "[-room NAME] [flags]", most: 1,
		does:  "play, on an embedded server with bots or at HOST:PORT",
		build: terminalBuild(front.Play), head: terminalHead(front.Play), keep: playerFlags}
	watchCommand = &command{name: "watch", args: "HOST:PORT", usage: "[-room NAME] [flags]", most: 1,
		does:  "watch a server, or one of its rooms, without playing",
		build: terminalBuild(front.Watch), head: terminalHead(front.Watch), keep: playerFlags}
	lobbyCommand = &command{name: "lobby", args: "[HOST:PORT]", usage: "[flags]", most: 1,
		does:  "choose a room, or name a new one",
		build: terminalBuild(front.Lobby), head: terminalHead(front.Lobby), keep: playerFlags}
)

// playerFlags keeps, for -help, the player's flags: not those of the
// embedded server (gridlag serve -help lists them).
func playerFlags(group string) bool { return group == "" }

// terminalFlags are a player's terminal's: play, watch and lobby.
type terminalFlags struct {
	kind    front.Kind
	fs      *cli.FlagSet
	connect string         // -connect, or the argument
	player  client.Options // -name, -latency, -jitter, -loss, -trace
	room    string
	logPath string
	debug   bool
	rec     recordFlags
	// host is the embedded server's (play and lobby without HOST:PORT).
	host host.Config
}

// terminalBuild builds the flags of play, watch or lobby: the player's,
// then (play and lobby) the embedded server's, which HOST:PORT leaves
// out.
func terminalBuild(kind front.Kind) func(io.Writer) (*cli.FlagSet, func([]string) error) {
	return func(io.Writer) (*cli.FlagSet, func([]string) error) {
		f := &terminalFlags{kind: kind, fs: cli.New("gridlag " + kindName(kind))}
		fs := f.fs
		f.player.Name = defaultName()
		f.player.RegisterFlags(fs)
		client.TraceFlag(fs, &f.player.LinkTrace, nil, "trace", "your link", openFile)
		fs.StringVar(&f.connect, "connect", "", "the server, `HOST:PORT`: the same as the argument")
		if kind != front.Lobby {
			fs.StringVar(&f.room, "room", "", "the room `NAME` to "+map[bool]string{true: "watch", false: "join"}[kind == front.Watch]+" (1-16 printable characters); default: the server's default room, or its lobby if it has other rooms")
		}
		if kind == front.Play {
			fs.StringVar(&f.player.Code, "code", "", "your class's `CODE`, from your teacher's screen (e.g. 3b-K7Q2XM): join the teacher's room even when your school's address has its players already")
		}
		fs.StringVar(&f.logPath, "log", defaultLogPath(), "log `FILE` (the screen is the game's)")
		fs.BoolVar(&f.debug, "debug", false, "log at debug level")
		if kind == front.Play {
			f.rec.define(fs, "your game (every message in and out with its time, every key)", true)
		} else {
			f.rec.defineCast(fs, "the screen")
		}
		fs.Check(f.check)
		if kind != front.Watch {
			f.host.Bots = 3
			f.host.SSH.HostKeyPath = defaultKeyPath()
			f.host.RegisterFlags(fs)
		}
		return fs, f.run
	}
}

// kindName is the command of a kind of terminal.
func kindName(k front.Kind) string {
	switch k {
	case front.Watch:
		return "watch"
	case front.Lobby:
		return "lobby"
	}
	return "play"
}

// check checks the player's flags.
func (f *terminalFlags) check() error {
	if f.logPath == "-" {
		return errors.New("-log - is for -server: while playing, the screen is the game's (logs go to a file)")
	}
	if err := (front.Mode{Kind: f.kind, Room: f.room}).Check(); err != nil {
		return fmt.Errorf("-%w", err) // -room "NAME": what is wrong with it
	}
	if err := names.CheckPlayer(f.player.Name, false); err != nil {
		return fmt.Errorf("-name %q: %w", f.player.Name, err)
	}
	if err := protocol.CheckCode(f.player.Code); err != nil {
		return fmt.Errorf("-code %q: a class code is letters, digits and a dash, as the teacher's screen shows it", f.player.Code)
	}
	return nil
}

// server returns the server to join, the argument or -connect; "" for
// an embedded one. Joining one, the embedded server's flags are refused.
func (f *terminalFlags) server(args []string) (string, error) {
	addr := f.connect
	if len(args) > 0 {
		if addr != "" && addr != args[0] {
			return "", f.fs.Errorf("two servers: %s and -connect %s", args[0], addr)
		}
		addr = args[0]
	}
	if addr == "" {
		if f.kind == front.Watch {
			return "", f.fs.Errorf("the server to watch is missing: gridlag watch HOST:PORT")
		}
		return "", nil
	}
	var refused error
	f.fs.Visit(func(fl *flag.Flag) {
		if refused == nil && f.fs.GroupOf(fl.Name) != "" {
			refused = f.fs.Errorf("%s", remoteRefusal(fl.Name))
		}
	})
	return addr, refused
}

// remoteRefusal says why a flag of the embedded server does nothing on a
// remote one.
func remoteRefusal(name string) string {
	switch name {
	case "bots":
		return "-bots starts bots on the embedded server; use `gridlag bots -connect` for a remote one"
	case "metrics", "health":
		return "-metrics and -health serve a server's figures and health; with -connect there is no server here"
	case "web":
		return "-web serves a server's players in a browser; with -connect there is no server here"
	}
	return "-" + name + " is the embedded server's; with -connect there is no server here (gridlag serve runs one)"
}

// run runs the terminal until the player quits or a signal comes, which
// ends it as q does: the terminal is restored, exit 0.
func (f *terminalFlags) run(args []string) error {
	addr, err := f.server(args)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	return f.play(ctx, addr)
}

// play runs the terminal in f's mode (front.Run), on an embedded server
// (a host in this process) unless addr names one.
func (f *terminalFlags) play(ctx context.Context, addr string) error {
	logger, closeLog, path, err := openScreenLog(f.logPath, f.debug)
	if err != nil {
		return err
	}
	defer closeLog()

	title := "gridlag — " + addr
	invite := ""
	if addr == "" {
		c := f.host
		fillHost(&c, f.fs, logger)
		c.Latency, c.Jitter, c.Invite = f.player.Latency, f.player.Jitter, true
		h, err := host.Start(c)
		if err != nil {
			return err
		}
		defer h.Close()
		addr = h.LocalAddr()
		title = "gridlag — embedded server " + addr
		invite = h.JoinAt("")
	}
	screen, err := tcell.NewScreen()
	if err != nil {
		return fmt.Errorf("terminal: %w", err)
	}
	screen, castDone, err := f.rec.castScreen(screen, title)
	if err != nil {
		return err
	}
	defer castDone()
	opts := tcp.Options{Options: f.player, Logger: logger.WithPrefix("client")}
	direct := f.player.Code != "" // the code's room, not the lobby
	if f.rec.Path != "" {
		if f.connect != "" && f.room == "" && tcp.HasRooms(ctx, addr) {
			return errors.New("-record records one game in one room, and the server has rooms: give -room NAME")
		}
		done, err := recordGame(&opts, f.rec.File, addr)
		if err != nil {
			return err
		}
		defer done() // after the connection closes: its last calls are in
		direct = true
	}
	return front.Run(ctx, screen, front.Mode{Kind: f.kind, Room: f.room}, front.Options{
		Addr:   addr,
		Client: opts,
		Screen: tui.Options{LogPath: path, Title: title, Invite: invite, Logger: logger.WithPrefix("tui"), Stop: ctx.Done(),
			Wire: wire.NewMeter(wire.FrontTCP)},
		WatchTitle: "gridlag — spectating " + addr,
		Direct:     direct,
		Log:        logger,
	})
}

// recordGame makes opts record the player's game into r's file: the
// link's seed is set, so that the recording holds it; done ends the
// recording and says where it is.
func recordGame(opts *tcp.Options, r record.File, addr string) (done func(), err error) {
	opts.Seed = time.Now().UnixNano()
	h := record.Header{Kind: record.KindGame, Gridlag: recordVersion(), Created: time.Now().UTC().Format(time.RFC3339),
		Game: &record.Game{Name: opts.Name, Room: opts.Room, Server: addr, Latency: record.Duration(opts.Latency),
			Jitter: record.Duration(opts.Jitter), Loss: opts.Loss, Seed: opts.Seed, Predict: true, Reconcile: true, Interpolate: true}}
	if opts.LinkTrace != nil {
		h.Game.Trace = opts.LinkTrace.Text
	}
	w, err := record.Create(r.Path, h, r.Max)
	if err != nil {
		return nil, fmt.Errorf("-record: %w", err)
	}
	j := record.NewJournal(w)
	opts.Journal = j.Call
	return func() {
		if err := j.Close(); err != nil {
			fmt.Fprintf(os.Stderr, "gridlag: -record %s: %v\n", r.Path, err)
			return
		}
		if j.Err() == record.ErrFull {
			sayFull(r.Path, r.Max, j.Last())
		}
		sayRecorded(r.Path, w.Size(), j.Last())
	}, nil
}

// terminalHead is the head of play's, watch's or lobby's -help.
func terminalHead(kind front.Kind) func(io.Writer) {
	return func(w io.Writer) {
		switch kind {
		case front.Play:
			fmt.Fprintf(w, `Plays on the server at HOST:PORT, or without one on a server of its own
in this process, with 3 bots (friends join it with -ssh :2222 or -web
:8080). The embedded server takes gridlag serve's flags too (-rate, -bots,
-map, -ssh, -web, ...: gridlag serve -help), but -addr, -drain and -agones.

Keys while playing:
  %s
`, strings.Join(tui.KeyHelp(), "\n  "))
		case front.Watch:
			fmt.Fprintf(w, `Watches the server at HOST:PORT, or its room NAME: every player, their
acknowledgements and round trips, without an avatar.

Keys while watching:
  %s
`, strings.Join(tui.SpectateKeyHelp(), "\n  "))
		case front.Lobby:
			fmt.Fprintf(w, `Shows the rooms of the server at HOST:PORT, or of an embedded one, to
choose one or name a new one; then plays there.

Keys in the lobby:
  %s
`, strings.Join(tui.LobbyKeyHelp(), "\n  "))
		}
		fmt.Fprintf(w, "\nFlags:\n")
	}
}
