package lab

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"gridlag/lab/scenario"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// TestPartTwoCaptions: the article's timeline (Part II: RIGHT at 0 and
// 100 ms, a 250 ms round trip, the server answering each input at once),
// stepped with n from t=0 until the server's first ping, as the lab
// starts, then with pings hidden (until a step finds nothing more to
// show), with reconciliation, without it and without prediction: every
// step's caption, with the time the step stopped at, is the golden
// file's. Each step changes something the screen shows.
func TestPartTwoCaptions(t *testing.T) {
	var got strings.Builder
	for _, c := range []struct {
		flags                    string
		predict, reconcile, ping bool
	}{
		{"-presses right@0ms,right@100ms -rate 0", true, true, true},
		{"-presses right@0ms,right@100ms -rate 0 -pings=false", true, true, false},
		{"-presses right@0ms,right@100ms -rate 0 -pings=false -reconcile=false", true, false, false},
		{"-presses right@0ms,right@100ms -rate 0 -pings=false -predict=false", false, false, false},
	} {
		cfg := Default()
		cfg.Rate, cfg.HidePings = 0, !c.ping
		p1 := &cfg.Players[0]
		p1.Presses, _ = scenario.ParsePresses("right@0ms,right@100ms")
		p1.Predict, p1.Reconcile = c.predict, c.reconcile
		l, _ := newLab(t, cfg)
		l.Pause()
		fmt.Fprintf(&got, "$ gridlag lab %s\n", c.flags)
		for l.Next() < PingInterval {
			before := l.look()
			l.Step()
			fmt.Fprintf(&got, "t %.3fs  %s\n", l.Now().Seconds(), l.Caption())
			if strings.HasPrefix(l.Caption(), "nothing the screen shows changes") {
				break
			}
			if l.look().same(before) {
				t.Errorf("%s: the step to %v changed nothing shown: %s", c.flags, l.Now(), l.Caption())
			}
		}
		got.WriteString("\n")
	}
	golden(t, "testdata/part2-steps.golden", got.String())
}

// golden compares got with the file at path, or rewrites it with -update.
func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./lab -run %s -update writes it)", err, t.Name())
	}
	if string(want) != got {
		t.Errorf("%s differs (go test ./lab -run %s -update rewrites it); got:\n%s", path, t.Name(), got)
	}
}

// TestStepSkipsWhatIsNotShown: with pings shown, a step from an idle lab
// at rate 0 stops at the first ping or pong, and says so; with the strips
// hiding them, it goes past them and stops after QuietLimit, saying
// nothing visible happened.
func TestStepSkipsWhatIsNotShown(t *testing.T) {
	cfg := Default()
	cfg.Rate = 0
	l, _ := newLab(t, cfg)
	l.Step()
	if !strings.Contains(l.Caption(), "ping") && !strings.Contains(l.Caption(), "pong") {
		t.Fatalf("with pings shown, the first step went to %v: %q", l.Now(), l.Caption())
	}
	l.SetPings(false)
	start := l.Now()
	l.Step()
	if l.Now()-start < QuietLimit || !strings.HasPrefix(l.Caption(), "nothing the screen shows changes for 10") {
		t.Fatalf("with pings hidden, the step went from %v to %v: %q", start, l.Now(), l.Caption())
	}
	l.Resume()
	if l.Caption() != "" {
		t.Fatalf("running again, the caption still says %q", l.Caption())
	}
}

// TestStepsAndTheInstrumentsTraffic: while a waterfall asks the server
// for its stages, a step says the Stages in words ("the server sends a
// stage report to Player 1"); with the strips hiding the background
// traffic (h), the steps skip them as they skip pings.
func TestStepsAndTheInstrumentsTraffic(t *testing.T) {
	for _, pings := range []bool{true, false} {
		cfg := Default()
		cfg.Rate, cfg.HidePings = 0, !pings
		cfg.Players[0].Presses, _ = scenario.ParsePresses("right@0ms")
		l, _ := newLab(t, cfg)
		l.Players()[0].SetTrace(true)
		l.Pause()
		var said []string
		for l.Next() < 500*ms {
			l.Step()
			said = append(said, l.Caption())
		}
		all := strings.Join(said, "\n")
		if got := strings.Contains(all, "the server sends a stage report to Player 1"); got != pings {
			t.Errorf("pings shown %v: a step says the stage report %v, want %v:\n%s", pings, got, pings, all)
		}
		if strings.Contains(all, "a stages") {
			t.Errorf("a caption names the Stages type as it is:\n%s", all)
		}
	}
}
