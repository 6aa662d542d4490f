package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/internal/cli"
	"gridlag/internal/perception"
	"gridlag/lab"
	"gridlag/lab/record"
	"gridlag/lab/replay"
	"gridlag/ops/scale"
	"gridlag/server"
	"gridlag/server/world"
	"gridlag/tui"
)

var labCommand = &command{name: "lab", usage: "[-lecture [FILE]] [flags]", most: 1,
	more: "a lecture file comes after -lecture (a lesson file after -lesson)",
	does: "the lab: two players and the server, slowed down", build: labBuild, head: labUsage}

// labFlags are the flags of `gridlag lab` beside the lab.Config they
// fill.
type labFlags struct {
	fs           *cli.FlagSet
	out          io.Writer
	wall         func() time.Time
	mapPath      string
	logPath      string
	debug        bool
	rec          recordFlags
	cfg          lab.Config // as the flags give it, for a recording's header
	lesson       string
	printLesson  int
	lecture      lectureValue
	printLecture bool
	predict      bool
	reconcile    bool
	interpolate  bool
	pings        bool
	scale        bool
	scaleSteps   []int
	wire         bool
	wireSSH      string
	perception   perceptionValue
	percDir      string
}

// perceptionValue is the lab's -perception: alone the test with the
// lab's defaults (lab.DefaultPerception: prediction on and off
// interleaved), -perception='WORDS' with settings as the teacher's
// -perception takes them (prediction on and off unless predict= says).
type perceptionValue struct {
	on       bool
	settings perception.Settings
}

// IsBoolFlag lets -perception stand alone.
func (v *perceptionValue) IsBoolFlag() bool { return true }

// String is the settings, "" when off.
func (v *perceptionValue) String() string {
	if v == nil || !v.on {
		return ""
	}
	return v.settings.String()
}

// Set takes true, false, or the test's settings.
func (v *perceptionValue) Set(text string) error {
	switch text {
	case "true":
		v.on, v.settings = true, lab.DefaultPerception()
		return nil
	case "false":
		v.on = false
		return nil
	}
	s, err := perception.ParseSettings(text)
	if err != nil {
		return err
	}
	if !strings.Contains(text, "predict=") {
		s.Mode = perception.PredictBoth
		if err := s.Check(); err != nil {
			return fmt.Errorf("%v (with prediction on and off: say predict=on or predict=off for half)", err)
		}
	}
	v.on, v.settings = true, s
	return nil
}

// lectureValue is -lecture: on its own the default lecture (Parts I-IV),
// -lecture FILE (the command's argument) or -lecture=FILE a lecture file.
type lectureValue struct {
	on   bool
	file string
}

// IsBoolFlag lets -lecture stand alone: a file after it is the command's
// argument.
func (v *lectureValue) IsBoolFlag() bool { return true }

// String is the lecture's file, "true" for the default one.
func (v *lectureValue) String() string {
	if v == nil || !v.on {
		return ""
	}
	if v.file == "" {
		return "true"
	}
	return v.file
}

// Set takes a lecture file, or true (the default lecture) or false.
func (v *lectureValue) Set(s string) error {
	switch s {
	case "true":
		v.on, v.file = true, ""
	case "false":
		v.on, v.file = false, ""
	default:
		v.on, v.file = true, s
	}
	return nil
}

// labBuild builds the flags of gridlag lab.
func labBuild(out io.Writer) (*cli.FlagSet, func([]string) error) {
	f := newLabFlags(out)
	return f.fs, f.run
}

// newLabFlags returns the lab's flags, registered, on the wall clock.
func newLabFlags(out io.Writer) *labFlags {
	f := &labFlags{fs: cli.New("gridlag lab"), out: out, wall: time.Now, cfg: lab.Default()}
	fs, cfg := f.fs, &f.cfg
	p1, p2 := &cfg.Players[0], &cfg.Players[1]
	fs.Duration(&p1.Latency, "latency", p1.Latency, client.LatencyRange, "Player 1's injected round trip, half each way")
	fs.Duration(&p2.Latency, "latency2", p2.Latency, client.LatencyRange, "Player 2's injected round trip")
	fs.Duration(&p1.Jitter, "jitter", 0, client.JitterRange, "Player 1's jitter: 0..J extra per message")
	fs.Duration(&p2.Jitter, "jitter2", 0, client.JitterRange, "Player 2's jitter")
	client.LossFlag(fs, &p1.Loss, "loss", "Player 1's loss")
	client.LossFlag(fs, &p2.Loss, "loss2", "Player 2's loss")
	fs.Checked(&presetValue{&p1.Preset}, "preset", "Player 1's link `condition`, instead of -latency, -jitter and -loss: "+presetNames())
	fs.Checked(&presetValue{&p2.Preset}, "preset2", "Player 2's link `condition`")
	client.TraceFlag(fs, &p1.Trace, &p1.TraceAt, "trace", "Player 1's link, instead of -latency, -jitter, -loss and -preset", openFile)
	client.TraceFlag(fs, &p2.Trace, &p2.TraceAt, "trace2", "Player 2's link", openFile)
	fs.Checked(&posValue{&p1.Start}, "start", "Player 1's starting cell `x,y`")
	fs.Checked(&posValue{&p2.Start}, "start2", "Player 2's starting cell `x,y`")
	fs.Checked(&pressesValue{p: &p1.Presses}, "presses", "Player 1's scripted key presses, `DIRECTION@TIME,...` (the scenario syntax)")
	fs.Checked(&pressesValue{p: &p2.Presses}, "presses2", "Player 2's scripted key presses")
	fs.BoolVar(&f.predict, "predict", true, "client-side prediction, both players")
	fs.BoolVar(&f.reconcile, "reconcile", true, "server reconciliation, both players (needs prediction)")
	fs.BoolVar(&f.interpolate, "interpolate", true, "interpolation of the other player, both players")
	fs.Int(&cfg.Rate, "rate", cfg.Rate, world.RateRange, "server update rate in Hz; 0 = a state right after each processed input")
	fs.Duration(&cfg.MoveTime, "move-time", world.DefaultMoveTime, world.MoveTimeRange, "server speed limit: one move per this time")
	fs.StringVar(&f.mapPath, "map", "", "map file ('#' wall, '.' floor); default: the embedded map")
	fs.Checked(&speedValue{&cfg.Speed}, "speed", "the clock's `speed` at the start: 1x, 1/2, 1/4 or 1/10")
	fs.Seed(&cfg.Seed, "seed", cfg.Seed, "seed of the jitter and the loss")
	fs.BoolVar(&cfg.Paused, "paused", false, "start paused at t=0 (. runs the clock, n steps, Bksp starts the script again)")
	fs.BoolVar(&f.pings, "pings", true, "show pings, pongs and scores on the strips (h hides them)")
	fs.StringVar(&f.lesson, "lesson", "", "give a lesson: `N` for a built-in one (1 to 7: Part I to IV, TCP loss, traces, a move on the wire) or a lesson file's path")
	fs.BoolVar(&f.wire, "wire", false, "measure what a move costs the wire over TCP, SSH and the web (a real server on loopback, about 40 s), print it and exit")
	fs.StringVar(&f.wireSSH, "wire-ssh", "ssh", "the OpenSSH client `PATH` -wire measures too, its keystroke-timing chaff on and off (\"\" for none)")
	fs.Int(&f.printLesson, "print-lesson", 0, cli.IntRange{Lo: 0, Hi: 1 << 20}, "print built-in lesson `N`'s file, to start a lesson of your own from, and exit")
	fs.Var(&f.lecture, "lecture", "give a lecture, several lessons in one run with an index of its parts: alone Gambetta's Parts I-IV, or -lecture FILE a lecture file")
	fs.BoolVar(&f.printLecture, "print-lecture", false, "print the Parts I-IV lecture's file, to start a lecture of your own from, and exit")
	world.RegisterLagFlags(fs, &cfg.LagComp, &cfg.Unlag, &cfg.Protect, 0) // the articles' timelines zap at once
	fs.BoolVar(&f.scale, "scale", false, "the scale lab: a server in this process, bots added in steps (+ -), areas of interest on and off (a), the server's own figures live")
	f.scaleSteps = scale.DefaultSteps
	fs.Checked(&stepsValue{&f.scaleSteps}, "scale-steps", "the scale lab's numbers of bots, `N,N,...` rising")
	fs.Var(&f.perception, "perception", "start with the blind perception test, Player 1 the student (p in the lab): alone prediction on and off interleaved, or -perception='WORDS' as teach's -perception")
	fs.StringVar(&f.percDir, "perception-dir", filepath.Join(stateDir(), "perception"), "save the perception test's answers as CSV in this `DIR` (\"-\" = not saved)")
	fs.StringVar(&f.logPath, "log", defaultLogPath(), "log file")
	fs.BoolVar(&f.debug, "debug", false, "log at debug level")
	f.rec.define(fs, "the lab (its settings, seeds, scripts and every live key, toggle, slider move, pause and lag spike)", true)
	fs.Check(func() error {
		switch {
		case (f.lesson != "" || f.lecture.on) && f.rec.Path != "":
			return errors.New("-record records the lab's own run, not a lesson: give -lesson, -lecture or -record, not one with another")
		case f.scale && (f.lesson != "" || f.lecture.on || f.rec.Path != "" || f.wire):
			return errors.New("-scale is a lab of its own: give it without -lesson, -lecture, -record or -wire")
		case f.perception.on && (f.rec.Path != "" || f.lesson != ""):
			return errors.New("-perception is the free lab's test (or a lecture's perception part): give it without -record or -lesson")
		case f.lesson != "" && f.lecture.on:
			return errors.New("a lecture is lessons: give -lesson or -lecture, not both (a lecture file lists its lessons)")
		}
		return nil
	})
	return f
}

// run shows the lab, or prints a lesson.
func (f *labFlags) run(args []string) error {
	if f.scale {
		return f.runScale(args)
	}
	if f.wire {
		return measureWire(f.out, f.wireSSH)
	}
	l, err := f.newLab(args)
	if err != nil || l == nil { // nil: -print-lesson printed it
		return err
	}
	return runLab(l, f)
}

// newLab builds the lab its flags and args (the lecture file after
// -lecture) describe, on the clock f.wall. It returns no lab and no error
// when -print-lesson or -print-lecture had it print a file instead.
func (f *labFlags) newLab(args []string) (*lab.Lab, error) {
	fs, cfg := f.fs, &f.cfg
	switch {
	case len(args) > 0 && !f.lecture.on:
		return nil, fs.Errorf("unexpected argument %q: a lecture file comes after -lecture (a lesson file after -lesson)", args[0])
	case len(args) > 0 && f.lecture.file != "":
		return nil, fs.Errorf("unexpected argument %q: -lecture=%s names the lecture already", args[0], f.lecture.file)
	case len(args) > 0:
		f.lecture.file = args[0]
	}
	if f.printLecture {
		_, err := io.WriteString(f.out, lab.DefaultLectureFile)
		return nil, err
	}
	if f.printLesson != 0 {
		text, err := lab.BuiltinLessonText(f.printLesson)
		if err != nil {
			return nil, fmt.Errorf("-print-lesson: %w", err)
		}
		_, err = io.WriteString(f.out, text)
		return nil, err
	}
	cfg.HidePings = !f.pings
	if f.perception.on {
		cfg.Perception = f.perception.settings
	}
	if cfg.PerceptionDir = f.percDir; f.percDir == "-" {
		cfg.PerceptionDir = ""
	}
	for _, p := range []*lab.PlayerConfig{&cfg.Players[0], &cfg.Players[1]} {
		p.Predict, p.Reconcile, p.Interpolate = f.predict, f.reconcile && f.predict, f.interpolate
	}
	m, err := server.LoadMap(f.mapPath)
	if err != nil {
		return nil, fs.Errorf("-map: %v", err)
	}
	cfg.Map = m
	if f.lesson != "" {
		lesson, err := lab.LoadLesson(f.lesson)
		if err != nil {
			return nil, fmt.Errorf("-lesson: %w", err)
		}
		l, err := lab.NewLesson(lesson, *cfg, f.wall)
		if err != nil {
			return nil, fmt.Errorf("-lesson: %w", err)
		}
		return l, nil
	}
	if f.lecture.on {
		lecture, err := lab.LoadLecture(f.lecture.file)
		if err != nil {
			return nil, fmt.Errorf("-lecture: %w", err)
		}
		l, err := lab.NewLecture(lecture, *cfg, f.wall)
		if err != nil {
			return nil, fmt.Errorf("-lecture: %w", err)
		}
		return l, nil
	}
	l, err := lab.New(*cfg, f.wall)
	if err != nil {
		return nil, &cli.UsageError{Cmd: fs.Name(), Err: err}
	}
	if f.perception.on {
		l.StartPerception()
	}
	if f.rec.Path == "" { // a recording holds the free lab alone
		if lecture, err := lab.DefaultLecture(); err == nil {
			// Not on a map or flags the lessons cannot play on: then >
			// does nothing, and -lecture says why.
			_ = l.OfferLecture(lecture)
		}
	}
	return l, nil
}

// runLab shows the lab on the terminal until the user quits or a signal
// comes.
func runLab(l *lab.Lab, f *labFlags) error {
	logger, closeLog, path, err := openScreenLog(f.logPath, f.debug)
	if err != nil {
		return err
	}
	defer closeLog()
	screen, err := tcell.NewScreen()
	if err != nil {
		return fmt.Errorf("terminal: %w", err)
	}
	screen, done, err := f.rec.castScreen(screen, "gridlag lab")
	if err != nil {
		return err
	}
	defer done()
	model := l.Model()
	if f.rec.Path != "" {
		w, err := record.Create(f.rec.Path, replay.LabHeader(f.cfg, recordVersion()), f.rec.Max)
		if err != nil {
			return fmt.Errorf("-record: %w", err)
		}
		r := replay.RecordLab(l, w)
		model = r
		defer func() {
			if err := r.Close(); err != nil {
				fmt.Fprintf(os.Stderr, "gridlag: -record %s: %v\n", f.rec.Path, err)
				return
			}
			end := l.Now()
			switch at, restarted := r.Restarted(); {
			case r.Err() == record.ErrFull:
				sayFull(f.rec.Path, f.rec.Max, w.Last())
			case restarted:
				end = at
				fmt.Fprintf(os.Stderr, "gridlag: the recording %s ended at the restart at t=%.3fs: a recording holds one run of the lab\n", f.rec.Path, at.Seconds())
			}
			sayRecorded(f.rec.Path, w.Size(), end)
		}()
	}
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	logger.Info("lab", "rate", l.Rate(), "speed", l.Speed(), "record", f.rec.Path)
	return tui.RunLab(screen, model, tui.Options{LogPath: path, Title: "gridlag lab", Logger: logger.WithPrefix("tui"), Stop: ctx.Done()})
}

// speedValue is the lab's -speed flag.
type speedValue struct{ p *lab.Speed }

// String is the speed, as the screen writes it.
func (v *speedValue) String() string {
	if v.p == nil {
		return ""
	}
	return v.p.String()
}

// Set reads a speed.
func (v *speedValue) Set(s string) error {
	sp, err := lab.ParseSpeed(s)
	if err != nil {
		return err
	}
	*v.p = sp
	return nil
}

func labUsage(w io.Writer) {
	fmt.Fprintf(w, `Gambetta's demo in the terminal: Player 1, the server and Player 2 side by
side, on the real server and client cores over simulated links, with every
message in flight drawn between the boards. The clock can run at 1x, 1/2,
1/4 or 1/10, pause and step one event at a time. By default Player 1 starts
at (10,10) with a 250 ms round trip, Player 2 at (14,10) with 150 ms, and the
server updates 3 times a second. The article's example, slowed down:

  gridlag lab -presses right@0ms,right@100ms -rate 0 -speed 1/10

Part IV's zap: Player 2 steps out of the line, Player 1 zaps where it still
sees it; a hit with lag compensation, a miss with -lagcomp=false (or c):

  gridlag lab -start2 12,10 -presses2 down@0ms -presses zap@150ms -latency 200ms -speed 1/10

The whole talk in one run: Gambetta's Parts I-IV, a lesson each, with an
index of the parts (> in the lab starts it too; < > go from part to part):

  gridlag lab -lecture

How much lag can you feel? The blind perception test, you as Player 1 (p in
the lab starts it; docs/perception.md):

  gridlag lab -perception

What a crowd costs the server: a real server in this process, bots added
in steps (10, 100, 1,000), areas of interest on and off, its own figures
live (docs/scale.md):

  gridlag lab -scale

Keys:
  %s
Keys of -scale:
  %s
Log file: %s

Flags:
`, strings.Join(tui.LabKeyHelp(), "\n  "), strings.Join(tui.ScaleKeyHelp(), "\n  "), defaultLogPath())
}

// runScale shows the scale lab on the terminal until the user quits or a
// signal comes.
func (f *labFlags) runScale(args []string) error {
	if len(args) > 0 {
		return f.fs.Errorf("unexpected argument %q: -scale takes none", args[0])
	}
	logger, closeLog, path, err := openScreenLog(f.logPath, f.debug)
	if err != nil {
		return err
	}
	defer closeLog()
	l, err := scale.Start(scale.Options{Steps: f.scaleSteps, Seed: f.cfg.Seed, Logger: logger})
	if err != nil {
		return err
	}
	defer l.Close()
	screen, err := tcell.NewScreen()
	if err != nil {
		return fmt.Errorf("terminal: %w", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	logger.Info("scale lab", "steps", f.scaleSteps, "game", l.Addr(), "metrics", l.MetricsURL())
	return tui.RunScale(screen, l.Panel(), tui.Options{LogPath: path, Title: "gridlag scale lab", Logger: logger.WithPrefix("tui"), Stop: ctx.Done()})
}
