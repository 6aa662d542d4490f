package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/internal/cli"
	"gridlag/internal/link"
	"gridlag/lab"
	"gridlag/lab/record"
	"gridlag/lab/replay"
	"gridlag/lab/scenario"
	"gridlag/server/world"
	"gridlag/tui"
)

var replayCommand = &command{name: "replay", args: "FILE", usage: "[flags]", least: 1, most: 1,
	missing: "the recording to replay is missing: gridlag replay FILE", more: "one recording at a time",
	does:  "play a recording again, or with one thing changed",
	build: replayBuild, head: replayUsage}

// replayFlags are the flags of `gridlag replay`.
type replayFlags struct {
	fs      *cli.FlagSet
	out     io.Writer
	asJSON  bool
	table   bool
	svg     string
	rec     recordFlags // -cast, and -record-max bounding it
	maxSize int64
	speed   lab.Speed
	at      time.Duration
	logPath string
	debug   bool
	// The what-if, each as given when set.
	predict, reconcile, interp, lagcomp bool
	latency, jitter, unlag              time.Duration
	loss                                float64
	rate                                int
	link                                string
	trace                               *link.Trace
}

// replayBuild builds the flags of gridlag replay.
func replayBuild(out io.Writer) (*cli.FlagSet, func([]string) error) {
	f := &replayFlags{fs: cli.New("gridlag replay"), out: out}
	fs := f.fs
	fs.BoolVar(&f.asJSON, "json", false, "print the timeline as gridlag scenario -json does (a scenario's recording: byte for byte); with a what-if, each line that differs from the recording has \"differs\": true and \"original\" (a position) or \"original_zap\" (a zap judged otherwise)")
	fs.BoolVar(&f.table, "table", false, "print the timeline as gridlag scenario does, then each difference from the recording")
	fs.StringVar(&f.svg, "svg", "", "draw the run as a sequence diagram (SVG) into `FILE`")
	f.rec.defineCast(fs, "the replay's screen")
	fs.Size(&f.maxSize, "max-size", record.DefaultMax, record.SizeRange, "the largest recording read")
	fs.Checked(&speedValue{&f.speed}, "speed", "the replay clock's `speed` at the start: 1x, 1/2, 1/4 or 1/10")
	fs.Duration(&f.at, "at", 0, cli.Length, "open the replay's screen paused at this time of the recording")
	fs.StringVar(&f.logPath, "log", defaultLogPath(), "log file")
	fs.BoolVar(&f.debug, "debug", false, "log at debug level")
	fs.BoolVar(&f.predict, "predict", true, "what-if: client-side prediction (both players)")
	fs.BoolVar(&f.reconcile, "reconcile", true, "what-if: server reconciliation (both players; on turns prediction on)")
	fs.BoolVar(&f.interp, "interp", true, "what-if: interpolation of other players (both players)")
	fs.Duration(&f.latency, "latency", 0, client.LatencyRange, "what-if: Player 1's injected round trip")
	fs.Duration(&f.jitter, "jitter", 0, client.JitterRange, "what-if: Player 1's jitter (a scenario's rival shares it)")
	client.LossFlag(fs, &f.loss, "loss", "what-if: Player 1's loss (a scenario's rival shares it)")
	fs.Int(&f.rate, "rate", 0, world.RateRange, "what-if: the server's update rate in Hz; 0 = a state per processed input")
	fs.BoolVar(&f.lagcomp, "lagcomp", true, "what-if: the server's lag compensation")
	fs.Duration(&f.unlag, "unlag", 0, world.UnlagRange, "what-if: how far back lag compensation may rewind")
	fs.StringVar(&f.link, "link", "", "what-if: the `transport`, tcp or datagram (simulated UDP: redundant inputs, State snapshots)")
	client.TraceFlag(fs, &f.trace, nil, "trace", "what-if: Player 1's link", openFile)
	return fs, f.run
}

// run replays the recording args[0].
func (f *replayFlags) run(args []string) error {
	path := args[0]
	change, err := f.changes(f.fs)
	if err != nil {
		return err
	}
	rec, err := record.ReadFile(path, f.maxSize)
	if err != nil {
		return &refusedError{err}
	}
	if f.asJSON || f.table || f.svg != "" {
		if rec.Stop == record.StopCut && !f.table { // the table says it at its end
			fmt.Fprintf(os.Stderr, "gridlag: %s: %s\n", path, rec.Cut())
		}
		return printReplay(f.out, rec, change, *f, path)
	}
	return showReplay(rec, change, *f, path)
}

// changes is the what-if the flags set.
func (f *replayFlags) changes(fs *cli.FlagSet) (replay.Changes, error) {
	var c replay.Changes
	boolOf := func(name string, v bool) *bool {
		if fs.Given(name) {
			return &v
		}
		return nil
	}
	durOf := func(name string, v time.Duration) *time.Duration {
		if fs.Given(name) {
			return &v
		}
		return nil
	}
	c.Predict, c.Reconcile, c.Interpolate = boolOf("predict", f.predict), boolOf("reconcile", f.reconcile), boolOf("interp", f.interp)
	c.LagComp = boolOf("lagcomp", f.lagcomp)
	c.Latency, c.Jitter, c.Unlag = durOf("latency", f.latency), durOf("jitter", f.jitter), durOf("unlag", f.unlag)
	if fs.Given("loss") {
		c.Loss = &f.loss
	}
	if fs.Given("rate") {
		c.Rate = &f.rate
	}
	c.Trace = f.trace
	if fs.Given("link") {
		t, err := replay.ParseLink(f.link)
		if err != nil {
			return c, fs.Errorf("-link %s: %v", f.link, err)
		}
		c.Link = &t
	}
	return c, nil
}

// printReplay prints the replay's timeline (JSON or a table, with the
// differences a what-if made) and draws its diagram.
func printReplay(out io.Writer, rec *record.Recording, c replay.Changes, f replayFlags, path string) error {
	orig, err := replay.Play(rec, replay.Changes{})
	if err != nil {
		return &refusedError{fmt.Errorf("%s: %w", path, err)}
	}
	res, diffs := orig, []replay.Difference(nil)
	if c.Any() {
		if res, err = replay.Play(rec, c); err != nil {
			return &refusedError{fmt.Errorf("%s: what-if %s: %w", path, c, err)}
		}
		diffs = replay.Compare(&orig.Result, &res.Result, c.String())
	}
	if f.svg != "" {
		if len(res.Wires) == 0 && rec.Header.Kind == record.KindGame {
			return fmt.Errorf("-svg: a game's recording holds the player's side alone, not the server's times; a what-if of the network simulates the game anew, with the server, and draws that: add -latency %v (its recorded link) or another change", rec.Header.Game.Latency.D())
		}
		title := "gridlag replay " + path
		if c.Any() {
			title += " (what-if: " + c.String() + ")"
		}
		if err := writeSVG(f.svg, &res.Result, title); err != nil {
			return err
		}
	}
	switch {
	case f.asJSON:
		if err := scenario.WriteJSON(out, res.Lines); err != nil {
			return err
		}
		return scenario.WriteBudgetJSON(out, res.Budget) // a scenario's, as it printed it
	case f.table:
		// The inputs' lives are in the JSON; the table leaves them out,
		// as gridlag scenario's does without -inputs.
		lines := slices.DeleteFunc(slices.Clone(res.Lines), func(l scenario.Line) bool { return l.Input != nil })
		if err := scenario.WriteTable(out, lines); err != nil {
			return err
		}
		return writeReplayNotes(out, rec, res, diffs, c)
	}
	return nil
}

// writeReplayNotes writes, after a table, the differences a what-if made,
// or how a game's replay compared with its recording.
func writeReplayNotes(out io.Writer, rec *record.Recording, res *replay.Result, diffs []replay.Difference, c replay.Changes) error {
	var b strings.Builder
	switch {
	case c.Any() && len(diffs) == 0:
		fmt.Fprintf(&b, "\nwhat-if %s: nothing differs: what each player sees, the zaps' verdicts, the tags and the points are as recorded\n", c)
	case c.Any():
		fmt.Fprintf(&b, "\nwhat-if %s: %s\n", c, replay.Count(diffs))
		for _, d := range diffs {
			b.WriteString(d.String() + "\n")
		}
	case rec.Header.Kind == record.KindGame && res.Mismatch == "":
		fmt.Fprintf(&b, "\nreplayed through the client core: %d States, every view as recorded\n", res.Checked)
	case rec.Header.Kind == record.KindGame:
		fmt.Fprintf(&b, "\na view differs from the recording: %s\n", res.Mismatch)
	}
	switch rec.Stop {
	case record.StopFull:
		b.WriteString("the recording stopped at its size limit: it ends here\n")
	case record.StopCut:
		b.WriteString(rec.Cut() + "\n")
	}
	_, err := io.WriteString(out, b.String())
	return err
}

// showReplay opens the replay's screen.
func showReplay(rec *record.Recording, c replay.Changes, f replayFlags, path string) error {
	title := fmt.Sprintf("replay %s (%s)", filepath.Base(path), rec.Header.Kind)
	m, err := replay.NewModel(rec, title, c, time.Now, f.speed)
	if err != nil {
		return &refusedError{fmt.Errorf("%s: %w", path, err)}
	}
	m.Seek(f.at)
	logger, closeLog, logPath, err := openScreenLog(f.logPath, f.debug)
	if err != nil {
		return err
	}
	defer closeLog()
	screen, err := tcell.NewScreen()
	if err != nil {
		return fmt.Errorf("terminal: %w", err)
	}
	screen, done, err := f.rec.castScreen(screen, title)
	if err != nil {
		return err
	}
	defer done()
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	logger.Info("replay", "file", path, "kind", rec.Header.Kind, "events", rec.Count, "whatif", c.String())
	return tui.RunReplay(screen, m, tui.Options{LogPath: logPath, Title: title, Logger: logger.WithPrefix("tui"), Stop: ctx.Done()})
}

func replayUsage(w io.Writer) {
	fmt.Fprintf(w, `Plays a recording again: of a scenario (gridlag scenario -record), of the
lab (gridlag lab -record) in the lab's three views, or of a game (gridlag
-record, or ssh ... record) in the player's view, through the player's
real client core. Paused at t=0; play, pause, step, slow motion, seek.

What-if: the same inputs at the same times through a changed setup,
the recording's run as a ghost (○) beside it and a line per difference:

  gridlag replay a.rec -reconcile=false -json

A game's client-side change (-predict, -reconcile, -interp) replays the
recorded messages exactly; a change of the network or the server is
simulated anew, the others walking where the recording saw them.

Keys:
  %s
Log file: %s

Flags:
`, strings.Join(tui.ReplayKeyHelp(), "\n  "), defaultLogPath())
}

// plural writes n and the noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
