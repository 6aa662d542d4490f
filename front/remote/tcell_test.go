package remote

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"
)

// The defects of tcell (v2.13.10) that issue 30 found, each reproduced
// against tcell alone on a fake tty: what upstream would need to fix, and
// what the filter (inputFilter) and the session's screen (screen.Fini)
// guard against meanwhile. Should an upgrade of tcell fix one, its test
// fails and says so: the guard's note is then out of date.

// fakeTty is a tcell.Tty of 80x24 whose input is what the test sends on
// in; closing in ends the input.
type fakeTty struct {
	in   chan []byte
	wake chan struct{}
	once sync.Once
}

func newFakeTty() *fakeTty {
	return &fakeTty{in: make(chan []byte, 64), wake: make(chan struct{})}
}

func (f *fakeTty) Start() error        { return nil }
func (f *fakeTty) Stop() error         { return nil }
func (f *fakeTty) Drain() error        { f.once.Do(func() { close(f.wake) }); return nil }
func (f *fakeTty) NotifyResize(func()) {}
func (f *fakeTty) WindowSize() (tcell.WindowSize, error) {
	return tcell.WindowSize{Width: 80, Height: 24}, nil
}
func (f *fakeTty) Write(p []byte) (int, error) { return len(p), nil }
func (f *fakeTty) Close() error                { return nil }
func (f *fakeTty) Read(p []byte) (int, error) {
	select {
	case b, ok := <-f.in:
		if !ok {
			return 0, io.EOF
		}
		return copy(p, b), nil
	case <-f.wake:
		return 0, io.EOF
	}
}

// rawScreen is tcell's own screen on a fake tty, initialised, in a UTF-8
// locale (tcell reads it from the environment).
func rawScreen(t *testing.T) (tcell.Screen, *fakeTty) {
	t.Helper()
	t.Setenv("LC_ALL", "C.UTF-8")
	ti, _, err := LookupTerm("xterm-256color")
	if err != nil {
		t.Fatal(err)
	}
	tty := newFakeTty()
	s, err := tcell.NewTerminfoScreenFromTtyTerminfo(tty, ti)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Init(); err != nil {
		t.Fatal(err)
	}
	return s, tty
}

// stacksWith reports whether a goroutine's stack holds each of frames.
func stacksWith(frames ...string) bool {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	for _, g := range bytes.Split(buf, []byte("\n\n")) {
		all := true
		for _, f := range frames {
			all = all && bytes.Contains(g, []byte(f))
		}
		if all {
			return true
		}
	}
	return false
}

// tcellSpinChild is the environment variable that makes
// TestTcellSpinsOnInvalidUTF8 the child that spins.
const tcellSpinChild = "GRIDLAG_TCELL_SPIN_CHILD"

// TestTcellSpinsOnInvalidUTF8: one byte that is not UTF-8 (0xff, or a
// lone lead byte then a key) has tcell's main loop spin for ever, and
// Fini wait on it for ever. tScreen.scanInput decodes its input buffer in
// a loop `for buf.Len() > 0`, leaving it only on transform.ErrShortSrc;
// the decoder of a UTF-8 locale, x/text's encoding.UTF8Validator, takes
// nothing at an invalid byte and returns ErrInvalidUTF8, so the loop
// never ends: mainLoop never gets back to its select, disengage's
// wg.Wait never returns. The spinning goroutine cannot be stopped, so
// the reproduction runs in a child process, which reports and exits.
//
// What upstream would need: scanInput to take an invalid byte when the
// decoder took nothing (pass it on as utf8.RuneError, which ScanUTF8
// already takes as the byte, or drop it), e.g. on ErrInvalidUTF8 with
// nIn == 0, buf.Next(1); and, while at it, the buffer it decodes into is
// always 8 bytes (min and max the wrong way round).
func TestTcellSpinsOnInvalidUTF8(t *testing.T) {
	if input, ok := os.LookupEnv(tcellSpinChild); ok {
		spinChild(t, input)
		return
	}
	if testing.Short() {
		t.Skip("runs child processes")
	}
	for _, input := range []string{"\xff", "\xc3j"} {
		report := runChild(t, "TestTcellSpinsOnInvalidUTF8", tcellSpinChild+"="+input)
		switch {
		case strings.Contains(report, "SPINNING"):
			t.Logf("%q: %s", input, line(report, "SPINNING"))
		case strings.Contains(report, "FINI RETURNED"):
			t.Errorf("%q: tcell no longer spins on input that is not UTF-8: upstream fixed scanInput; remote's inputFilter note is out of date", input)
		default:
			t.Errorf("%q: the child said:\n%s", input, report)
		}
	}
}

// runChild runs the test named again in a child process with env set
// (NAME=value), and returns what it printed; the child reports and exits.
func runChild(t *testing.T, test, env string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.v")
	cmd.Env = append(os.Environ(), env)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case <-exited:
	case <-time.After(2 * time.Minute): // a hang guard
		cmd.Process.Kill()
		<-exited
		t.Fatalf("the child (%s) never reported:\n%s", env, out.String())
	}
	return out.String()
}

// line is the line of s that holds sub.
func line(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// spinChild feeds input to tcell's screen, waits for its main loop to
// take it, ends the input, calls Fini and reports FINI RETURNED if it
// returns, or SPINNING once tcell's main loop was seen in scanInput for a
// second on end with Fini not returned, then exits: its spinning
// goroutine would never end. (Should tcell take the bytes and go back to
// its loop, scanInput is never seen: after 30 s that counts as returned.)
func spinChild(t *testing.T, input string) {
	s, tty := rawScreen(t)
	for _, b := range []byte(input) {
		tty.in <- []byte{b} // a byte a read, as a client typing
	}
	for deadline := time.Now().Add(30 * time.Second); !stacksWith("tcell/v2.(*tScreen).scanInput"); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) { // the bytes were taken long ago
			fmt.Println("FINI RETURNED: the main loop never stayed in scanInput")
			os.Exit(0)
		}
	}
	close(tty.in)
	done := make(chan struct{})
	go func() {
		s.Fini()
		close(done)
	}()
	var ru0 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	seen := 0
	for seen < 20 {
		select {
		case <-done:
			fmt.Println("FINI RETURNED")
			os.Exit(0)
		case <-time.After(50 * time.Millisecond):
		}
		if stacksWith("tcell/v2.(*tScreen).scanInput") {
			seen++
		} else {
			seen = 0
		}
	}
	var ru1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	cpu := time.Duration(ru1.Utime.Nano()+ru1.Stime.Nano()-ru0.Utime.Nano()-ru0.Stime.Nano()) * time.Nanosecond
	fmt.Printf("SPINNING: Fini has not returned; tcell's main loop was in scanInput at each of 20 looks 50 ms apart; %v of CPU meanwhile\n", cpu)
	os.Exit(0)
}

// TestTcellFiniWaitsOnAFullEventQueue: tcell posts each event with a send
// that blocks until its queue (256 events) takes it, and Fini waits for
// the loop that posts. Input of more keys than the queue holds, once the
// application stopped reading it (it quit: q, then the rest of a paste),
// leaves Fini waiting for ever. The test sees Fini blocked with the main
// loop in a send, then reads the queue, and Fini returns.
//
// What upstream would need: the input processor's post to give up once
// the screen stops (select on the quit channel, as inputLoop does), or
// drop events when the queue is full while stopping.
func TestTcellFiniWaitsOnAFullEventQueue(t *testing.T) {
	s, tty := rawScreen(t)
	for range 5 {
		tty.in <- bytes.Repeat([]byte("j"), 128)
	}
	events := s.(eventQueue).EventQ()
	for len(events) < cap(events) {
		time.Sleep(time.Millisecond) // the queue full, the main loop in its send
	}
	done := make(chan struct{})
	go func() {
		s.Fini()
		close(done)
	}()
	for deadline := time.Now().Add(time.Minute); !stacksWith("(*tScreen).disengage", "sync.(*WaitGroup).Wait") ||
		!stacksWith("(*inputProcessor).post", "chan send"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) { // a hang guard
			t.Fatal("Fini never blocked on the main loop's send: has tcell changed?")
		}
	}
	select {
	case <-done:
		t.Fatal("tcell's Fini returned with its event queue full: upstream fixed it; remote's screen.Fini note is out of date")
	default:
	}
	for {
		select {
		case <-events:
			continue
		case <-done:
		case <-time.After(time.Minute): // a hang guard
			t.Fatal("Fini did not return once its queue was read")
		}
		break
	}
}

// tcellKeychanChild is the environment variable that makes
// TestTcellFiniWaitsOnItsInputLoop the child whose Fini hangs.
const tcellKeychanChild = "GRIDLAG_TCELL_KEYCHAN_CHILD"

// TestTcellFiniWaitsOnItsInputLoop: tcell's input loop hands each read to
// its main loop with a send that blocks (tScreen.inputLoop,
// t.keychan <- chunk, a channel of 10); Fini closes stopQ, and the main
// loop, choosing at random between stopQ and a full keychan, leaves half
// of the time with the input loop blocked on that send for good, Fini
// waiting for it for ever. It takes input that comes faster than the
// application takes the keys (a paste, a flood), and the events taken
// while Fini runs. A child process runs the race until it hangs.
//
// What upstream would need: the input loop's send to select on stopQ.
func TestTcellFiniWaitsOnItsInputLoop(t *testing.T) {
	if _, ok := os.LookupEnv(tcellKeychanChild); ok {
		keychanChild(t)
		return
	}
	if testing.Short() {
		t.Skip("runs a child process")
	}
	report := runChild(t, "TestTcellFiniWaitsOnItsInputLoop", tcellKeychanChild+"=1")
	switch {
	case strings.Contains(report, "HUNG"):
		t.Log(line(report, "HUNG"))
	case strings.Contains(report, "NEVER HUNG"):
		t.Errorf("%s: upstream fixed the input loop's send? remote's Tty note is out of date", line(report, "NEVER HUNG"))
	default:
		t.Errorf("the child said:\n%s", report)
	}
}

// keychanChild runs trials of a flood of keys the application does not
// read, then Fini with the events taken meanwhile, until Fini hangs with
// the input loop blocked on its send and the main loop gone; it reports
// HUNG then, or NEVER HUNG after 100 trials, and exits.
func keychanChild(t *testing.T) {
	for trial := 1; trial <= 100; trial++ {
		s, tty := rawScreen(t)
		for range 20 {
			tty.in <- bytes.Repeat([]byte("j"), 128)
		}
		events := s.(eventQueue).EventQ()
		for len(events) < cap(events) || !stacksWith("(*tScreen).inputLoop", "chan send") {
			time.Sleep(time.Millisecond) // the queue full, the input loop blocked
		}
		done := make(chan struct{})
		go func() {
			s.Fini()
			close(done)
		}()
		for hung := false; !hung; {
			select {
			case <-events:
				continue
			case <-done:
			case <-time.After(10 * time.Millisecond):
				hung = stacksWith("(*tScreen).inputLoop", "chan send") && !stacksWith("(*tScreen).mainLoop") &&
					stacksWith("(*tScreen).disengage", "sync.(*WaitGroup).Wait")
				continue
			}
			break
		}
		select {
		case <-done:
		default:
			fmt.Printf("HUNG at trial %d: Fini waits on the input loop, blocked on its send, the main loop gone\n", trial)
			os.Exit(0)
		}
	}
	fmt.Println("NEVER HUNG in 100 trials")
	os.Exit(0)
}

// TestTcellRepeatsAWin32KeyAsItIsTold: a win32-input-mode key report
// (which tcell asks xterm-like terminals for, CSI ?9001h) says how many
// times the key repeats, and tcell posts it that many times, up to 2^31:
// one report of 25 bytes was hours of a core, and a session that could
// not stop meanwhile. Here 1000 are asked for and 1000 come.
//
// What upstream would need: a bound on the repeat count (a terminal
// sends a held key as one report per repeat).
func TestTcellRepeatsAWin32KeyAsItIsTold(t *testing.T) {
	s, tty := rawScreen(t)
	defer s.Fini()
	tty.in <- []byte("\x1b[65;0;65;1;0;1000_")
	events := s.(eventQueue).EventQ()
	n := 0
	for n < 1000 {
		select {
		case ev := <-events:
			if k, ok := ev.(*tcell.EventKey); ok && k.Rune() == 'A' {
				n++
			}
		case <-time.After(time.Minute): // a hang guard
			t.Fatalf("%d keys came of one report saying 1000", n)
		}
	}
	t.Logf("one report of %d bytes: %d keys", len("\x1b[65;0;65;1;0;1000_"), n)
}
