package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gridlag/lab/record"
	"gridlag/lab/replay"
	"gridlag/lab/scenario"
	"gridlag/server/admit/admittest"
)

// runScenario runs `gridlag scenario ARGS` and returns what it printed.
func runScenario(t *testing.T, args ...string) string {
	t.Helper()
	var out bytes.Buffer
	if err := scenarioMain(args, &out); err != nil {
		t.Fatalf("scenario %v: %v", args, err)
	}
	return out.String()
}

// runReplay runs `gridlag replay ARGS` and returns what it printed.
func runReplay(t *testing.T, args ...string) string {
	t.Helper()
	var out bytes.Buffer
	if err := replayMain(args, &out); err != nil {
		t.Fatalf("replay %v: %v", args, err)
	}
	return out.String()
}

// TestScenarioRecordingReplaysByteForByte: the two cases: a
// scenario recorded with -record replays with -json printing byte for byte
// what the scenario printed, the article's and one with loss, a seed and
// a rival.
func TestScenarioRecordingReplaysByteForByte(t *testing.T) {
	dir := t.TempDir()
	for i, args := range [][]string{
		{"-presses", "right@0ms,right@100ms", "-latency", "250ms"},
		{"-presses", "right@0ms,right@100ms,down@300ms", "-latency", "250ms", "-loss", "20%", "-seed", "3", "-presses2", "left@0ms,up@150ms,zap@400ms"},
	} {
		rec := filepath.Join(dir, "a"+string(rune('0'+i))+".rec")
		want := runScenario(t, append(args, "-json", "-record", rec)...)
		if got := runReplay(t, rec, "-json"); got != want {
			t.Fatalf("scenario %v printed\n%s\nits replay printed\n%s", args, want, got)
		}
		if strings.Count(want, "\n") < 7 {
			t.Fatalf("scenario %v printed little:\n%s", args, want)
		}
	}
}

// TestReplayReconcileOffShowsTheJump: the article's recording replayed
// with -reconcile=false jumps back to 11 at t=250, that line marked as
// differing from the recording (which stayed at 12), and no other; the
// table says the difference in words.
func TestReplayReconcileOffShowsTheJump(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "a.rec")
	runScenario(t, "-presses", "right@0ms,right@100ms", "-latency", "250ms", "-record", rec)
	out := runReplay(t, rec, "-reconcile=false", "-json")
	marked := 0
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var l scenario.Line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		if l.Differs {
			marked++
			if l.TMS != 250 || l.Client != [2]int{11, 10} || l.Original == nil || l.Original.Client != [2]int{12, 10} {
				t.Fatalf("marked %s", sc.Text())
			}
		}
	}
	if marked != 1 {
		t.Fatalf("%d lines marked as differing, want the jump back at 250 ms:\n%s", marked, out)
	}
	table := runReplay(t, "-reconcile=false", "-table", rec) // flags before the file too
	if !strings.Contains(table, "t=250 ms: original (12,10), now (11,10): reconciliation off") {
		t.Fatalf("the table does not say the difference:\n%s", table)
	}
}

// TestReplayWhatIfSaysTheVerdict: issue 32's Part IV case recorded with
// lag compensation and replayed without it: the table says the zap now
// misses where the recording hit, with the recording's rewind, and
// counts it with the tag and the point that went with it.
func TestReplayWhatIfSaysTheVerdict(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "s4.rec")
	runScenario(t, "-latency", "200ms", "-start2", "12,10", "-presses2", "down@0ms", "-presses", "zap@150ms", "-latency2", "150ms", "-record", rec)
	table := runReplay(t, rec, "-lagcomp=false", "-table")
	for _, want := range []string{
		"what-if lag compensation off: 3 differences: 1 zap verdict, 1 score, 1 tag and freeze\n",
		"t=250 ms: the zap at 250 ms misses (was: hit, rewound 317 ms): rival had left the line; lag compensation off\n",
		"t=325 ms: rival is not tagged nor frozen (was: tagged by you at 325 ms, frozen); lag compensation off\n",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("the table lacks %q:\n%s", want, table)
		}
	}
	if strings.Contains(table, "nothing differs") {
		t.Errorf("the table says nothing changed:\n%s", table)
	}
}

// TestScenarioDatagramSaysWhatWasRepeated: -link datagram -loss 20%: every
// input arrives, each processed once, and the JSON's last line says how
// many copies were repeated and what the link carried.
func TestScenarioDatagramSaysWhatWasRepeated(t *testing.T) {
	out := runScenario(t, "-json", "-link", "datagram", "-loss", "20%", "-seed", "3",
		"-presses", "right@0ms,right@100ms,right@200ms,down@300ms,down@400ms")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	for seq := 1; seq <= 5; seq++ {
		if n := strings.Count(out, `server: processes #`+string(rune('0'+seq))+" "); n != 1 {
			t.Fatalf("input #%d processed %d times:\n%s", seq, n, out)
		}
	}
	var last scenario.Line
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil {
		t.Fatal(err)
	}
	if last.Link == nil || last.Link.Transport != "datagram" || last.Link.Inputs != 5 || last.Link.Repeated == 0 {
		t.Fatalf("the last line does not say what was repeated: %s", lines[len(lines)-1])
	}
	if !strings.Contains(lines[len(lines)-1], `"repeated":`) {
		t.Fatalf("no repeated field: %s", lines[len(lines)-1])
	}
}

// TestScenarioSVG: -svg draws a diagram that parses as SVG, with an
// arrow for every message that crossed a link (those that left and
// arrived together share one, data-messages counting them), and (when
// rsvg-convert is installed) renders.
func TestScenarioSVG(t *testing.T) {
	dir := t.TempDir()
	svg := filepath.Join(dir, "a.svg")
	args := []string{"-loss", "20%", "-seed", "3", "-presses2", "left@0ms,up@150ms"}
	runScenario(t, append(args, "-svg", svg)...)
	data, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	var root struct {
		XMLName xml.Name
		Groups  []struct {
			Class    string     `xml:"class,attr"`
			Messages int        `xml:"data-messages,attr"`
			Line     []struct{} `xml:"line"`
		} `xml:"g"`
	}
	if err := xml.Unmarshal(data, &root); err != nil || root.XMLName.Local != "svg" {
		t.Fatalf("not SVG: %v (%v)", err, root.XMLName)
	}
	arrows, drawn := 0, 0
	for _, g := range root.Groups {
		if strings.HasPrefix(g.Class, "msg") && len(g.Line) == 1 {
			arrows++
			drawn += g.Messages
		}
	}
	wires := messages(t, args)
	if drawn != wires || arrows < 8 {
		t.Fatalf("%d arrows drawing %d messages, of %d", arrows, drawn, wires)
	}
	if lines := strings.Count(string(data), "\n"); lines > 400 {
		t.Fatalf("the diagram is %d lines", lines)
	}
	if _, err := exec.LookPath("rsvg-convert"); err != nil {
		t.Log("rsvg-convert is not installed (.ci/run installs librsvg2-bin): not rendered")
		return
	}
	png := filepath.Join(dir, "a.png")
	if out, err := exec.Command("rsvg-convert", svg, "-o", png).CombinedOutput(); err != nil {
		t.Fatalf("rsvg-convert: %v\n%s", err, out)
	}
	if st, err := os.Stat(png); err != nil || st.Size() < 1000 {
		t.Fatalf("rendered %v, %v", st, err)
	}
}

// messages counts the messages that cross a link in the scenario of args.
func messages(t *testing.T, args []string) int {
	t.Helper()
	rec := filepath.Join(t.TempDir(), "m.rec")
	runScenario(t, append(args, "-record", rec)...)
	r, err := record.ReadFile(rec, 0)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := replay.ScenarioOf(r)
	if err != nil {
		t.Fatal(err)
	}
	res, err := scenario.RunFull(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return len(res.Wires)
}

// TestDamagedRecordingsAreRefused: a recording cut within its header, an
// empty file, a corrupted and a future-version recording each make
// gridlag replay say why in one line and exit with status 2.
func TestDamagedRecordingsAreRefused(t *testing.T) {
	t.Parallel() // the binary in a process of its own, mostly waited on: see TestMain
	bin := buildBinary(t)
	dir := t.TempDir()
	good := filepath.Join(dir, "good.rec")
	runScenario(t, "-record", good)
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	corrupt := bytes.Clone(data)
	corrupt[len(corrupt)-12] ^= 0x20
	future := bytes.Clone(data)
	future[8] = record.Version + 1
	for _, c := range []struct {
		name string
		data []byte
		says string
	}{
		{"truncated", data[:30], "recording refused: truncated: 30 bytes end within its header"},
		{"empty", nil, "recording refused: the file is empty (0 bytes)"},
		{"corrupted", corrupt, "recording refused: damaged: it fails its checksum"},
		{"future", future, fmt.Sprintf("recording refused: made by a newer gridlag (recording version %d; this gridlag reads version %d): update gridlag to replay it", record.Version+1, record.Version)},
		{"text", []byte("right@0ms\n"), "recording refused: not a gridlag recording"},
	} {
		path := filepath.Join(dir, c.name+".rec")
		if err := os.WriteFile(path, c.data, 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "replay", path, "-json")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Fatalf("%s: %v, want exit status 2", c.name, err)
		}
		want := "gridlag: " + path + ": " + c.says
		if line := stderr.String(); strings.Count(line, "\n") != 1 || !strings.HasPrefix(line, want) {
			t.Fatalf("%s: said %q, want one line starting %q", c.name, line, want)
		}
		if stdout.Len() > 0 {
			t.Fatalf("%s: half-read: printed %q", c.name, stdout.String())
		}
	}
}

// TestLabCastAndRecordInTmux: gridlag lab -cast -record in a terminal:
// the cast starts with an asciicast v2 header of the terminal's size and
// goes on with frames in time order; the recording replays.
func TestLabCastAndRecordInTmux(t *testing.T) {
	t.Parallel() // the binary in a process of its own, mostly waited on: see TestMain
	bin := buildBinary(t)
	dir := t.TempDir()
	cast, rec := filepath.Join(dir, "a.cast"), filepath.Join(dir, "a.rec")
	tm := newTmux(t, 160, 45, bin+" lab -presses right@0ms,right@100ms -rate 0 -log "+filepath.Join(dir, "log")+" -cast "+cast+" -record "+rec+"; sleep 60")
	tm.waitFor("Player 1", "Server")
	tm.keys("Left", "w", "r", ".", "n", "n", ".")
	// The server has both players' presses: the script's two and LEFT,
	// and UP.
	served := regexp.MustCompile(`Player 2 \(14,9\) +ack #1(?s:.*)Player 1 \(11,10\) +ack #3`)
	tm.waitUntil("both players' presses at the server", served.MatchString)
	tm.keys("q")
	tm.waitFor("replay it with: gridlag replay", "play it with: asciinema play")
	f, err := os.Open(cast)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	sc.Scan()
	var head struct {
		Version       int `json:"version"`
		Width, Height int
	}
	if err := json.Unmarshal(sc.Bytes(), &head); err != nil || head.Version != 2 || head.Width != 160 || head.Height != 45 {
		t.Fatalf("header %s: %+v %v", sc.Text(), head, err)
	}
	frames, last := 0, -1.0
	for sc.Scan() {
		var ev []any
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil || len(ev) != 3 {
			t.Fatalf("event %s: %v", sc.Text(), err)
		}
		at, _ := ev[0].(float64)
		if at < last || ev[1] != "o" {
			t.Fatalf("event %s after %v", sc.Text(), last)
		}
		last = at
		frames++
	}
	if frames < 3 {
		t.Fatalf("%d frames", frames)
	}
	out := runReplay(t, rec, "-json")
	if !strings.Contains(out, `"event":"Player 1: press LEFT`) || !strings.Contains(out, `"event":"Player 2: press UP`) {
		t.Fatalf("the lab's keys are not in its replay:\n%s", out)
	}
}

// TestCraftedRecordingsInLittleMemory: recordings made to cost a replay
// gigabytes are refused in little memory: 60 MB (under the default
// -max-size) of 12.6 million five-byte presses with a valid checksum,
// refused before playing as a run past replay.MaxWork; then the same
// with every press turned into an update and the checksum made again
// (as an attacker would), refused at the first event, with its place.
// The figure is the peak resident set of the real binary, as the kernel
// counts it for a child process (rusage's maxrss): what the machine gave
// it, garbage and all, not what Go's heap says it holds.
func TestCraftedRecordingsInLittleMemory(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("maxrss is counted in kilobytes on Linux")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	const events, limitKB = 12_600_000, 256 << 10
	presses := filepath.Join(dir, "presses.rec")
	w, err := record.Create(presses, record.Header{Kind: record.KindScenario,
		Scenario: &record.Scenario{Players: []record.Player{{Start: [2]int{1, 1}}}}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := range events {
		if err := w.Write(record.Event{Kind: record.Press, Arg: int64(1 + i%4)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(0); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(presses)
	if err != nil || st.Size() < 60e6 || st.Size() > record.DefaultMax {
		t.Fatalf("the crafted file: %v", err)
	}
	size := int(st.Size())
	end := 4 + len(binary.AppendVarint(nil, events)) // the end mark: kind, dt, why, count, no data
	first := size - 4 - end - 5*events
	updates := filepath.Join(dir, "updates.rec")
	craftUpdates(t, presses, updates, first, events, size)
	for _, c := range []struct{ path, says string }{
		{updates, fmt.Sprintf("recording refused: damaged: event 1 at byte %d: update by Player 1, which a scenario recording does not hold", first)},
		{presses, "a replay plays at most 1000000 states and actions: its run would take 12600000 presses"},
	} {
		stdout, stderr, code, kb := runMeasured(t, bin, "replay", c.path, "-json")
		if code != 2 {
			t.Fatalf("%s: exit status %d (%s), want 2", c.path, code, stderr)
		}
		if want := "gridlag: " + c.path + ": " + c.says + "\n"; stderr != want {
			t.Fatalf("said %q, want %q", stderr, want)
		}
		t.Logf("%s: refused with a peak RSS of %d MB", filepath.Base(c.path), kb>>10)
		if kb > limitKB || len(stdout) > 0 {
			t.Fatalf("%s: a peak RSS of %d MB (at most %d), printed %d bytes", c.path, kb>>10, limitKB>>10, len(stdout))
		}
	}
}

// craftUpdates copies the recording at from (of size bytes, its n events
// of five bytes each from byte first on) to to, every event
// turned into an update, with its checksum made again: a crafted file,
// written a piece at a time.
func craftUpdates(t *testing.T, from, to string, first, n, size int) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	sum := crc32.NewIEEE()
	w := bufio.NewWriter(io.MultiWriter(out, sum))
	r := bufio.NewReader(in)
	buf := make([]byte, 5<<12)
	for off := 0; off < size-4; {
		k := min(len(buf), size-4-off)
		if _, err := io.ReadFull(r, buf[:k]); err != nil {
			t.Fatal(err)
		}
		for i := range k {
			if at := off + i; at >= first && at < first+5*n && (at-first)%5 == 0 {
				buf[i] = byte(record.Update)
			}
		}
		w.Write(buf[:k])
		off += k
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	out.Write(binary.BigEndian.AppendUint32(nil, sum.Sum32()))
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestRecordingSurvivesKill9: gridlag play -record with 3 bots, killed
// with SIGKILL once its file on disk holds 3 s of play (read as it
// grows: the writer flushes at least every second): the file replays up
// to at least that moment through the client core, every view as
// recorded, and says where it was cut.
func TestRecordingSurvivesKill9(t *testing.T) {
	bin, dir := endToEnd(t)
	rec := filepath.Join(dir, "long.rec")
	tm := newTmux(t, 80, 24, fmt.Sprintf("XDG_STATE_HOME=%s exec %s play -name ada -bots 3 -record %s", dir, bin, rec))
	tm.waitFor("████")
	var held time.Duration
	admittest.Eventually(t, func() bool {
		r, err := record.ReadFile(rec, 0)
		if err == nil {
			held = r.End
		}
		return held >= 3*time.Second
	}, func() string { return fmt.Sprintf("the file on disk holds %v of play", held) })
	pid, err := strconv.Atoi(strings.TrimSpace(tm.run("display-message", "-p", "-t", tm.session, "#{pane_pid}")))
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	admittest.Eventually(t, func() bool { return syscall.Kill(pid, 0) != nil }, func() string { return "the process outlived SIGKILL" })
	r, err := record.ReadFile(rec, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r.Stop != record.StopCut || r.End < held {
		t.Fatalf("killed after the file held %v: it replays %v (%v)", held, r.End, r.Stop)
	}
	out, err := exec.Command(bin, "replay", rec, "-table").CombinedOutput()
	if err != nil {
		t.Fatalf("replay: %v\n%s", err, out)
	}
	for _, want := range []string{"the file was cut short (a process killed mid-recording, or a copy cut): ", "; it replays up to there\n", "every view as recorded"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the replay lacks %q:\n%s", want, out)
		}
	}
}

// TestReplayWhatIfVerdictInTmux: the Part IV what-if on the
// replay's screen at 80x24, opened paused at 300 ms: the changed
// verdict, with the recording's rewind, is on the screen.
func TestReplayWhatIfVerdictInTmux(t *testing.T) {
	bin, dir := endToEnd(t)
	rec := filepath.Join(dir, "s4.rec")
	runScenario(t, "-latency", "200ms", "-start2", "12,10", "-presses2", "down@0ms", "-presses", "zap@150ms", "-latency2", "150ms", "-record", rec)
	tm := newTmux(t, 80, 24, fmt.Sprintf("%s replay %s -lagcomp=false -at 300ms -log %s; sleep 60", bin, rec, filepath.Join(dir, "log")))
	tm.waitFor("PAUSED", "t=250 ms: the zap at 250 ms misses", "(was: hit, rewound 317 ms)")
	tm.keys("q")
}

// endToEnd runs t in parallel with the others that run the binary
// (mostly waiting on it: see TestMain), unless -short, and returns the
// binary and a directory of t's own.
func endToEnd(t *testing.T) (bin, dir string) {
	t.Helper()
	t.Parallel()
	if testing.Short() {
		t.Skip("end-to-end")
	}
	return buildBinary(t), t.TempDir()
}

// TestPartFourSVGFromTheCommand: the command, gridlag scenario
// ... -svg p4.svg: the file holds the server's verdict and its rewind in
// full, as the timeline prints them, nothing cut, and renders.
func TestPartFourSVGFromTheCommand(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "p4.svg")
	table := runScenario(t, "-latency", "200ms", "-start2", "12,10", "-presses2", "down@0ms", "-presses", "zap@150ms", "-latency2", "150ms", "-svg", svg)
	verdict := regexp.MustCompile(`hits rival at \(12,10\), rewound \d+ms`).FindString(table)
	if verdict == "" {
		t.Fatalf("the timeline has no verdict:\n%s", table)
	}
	data, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	text := regexp.MustCompile(`<[^>]*>`).ReplaceAllString(string(data), " ")
	if !strings.Contains(strings.Join(strings.Fields(text), " "), verdict) || strings.Contains(text, "…") {
		t.Fatalf("the SVG lacks %q, or cuts a label:\n%s", verdict, data)
	}
	if _, err := exec.LookPath("rsvg-convert"); err != nil {
		t.Skip("rsvg-convert is not installed (.ci/run installs librsvg2-bin)")
	}
	if out, err := exec.Command("rsvg-convert", svg, "-o", svg+".png").CombinedOutput(); err != nil {
		t.Fatalf("rsvg-convert: %v\n%s", err, out)
	}
}
