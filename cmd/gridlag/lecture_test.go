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

	"gridlag/lab"
)

// TestLabLectureFlags: -lecture alone gives Parts I-IV, -lecture FILE
// (or =FILE) a lecture file (a file without -lecture, or two, refused), -print-lecture prints the default one to
// start from; -lecture with -lesson or -record is refused; the free lab
// offers the lecture, unless it records.
func TestLabLectureFlags(t *testing.T) {
	dir := t.TempDir()
	talk := filepath.Join(dir, "talk.lec")
	if err := os.WriteFile(talk, []byte("title My talk\npart 2 Reconciliation\npart 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args  string
		title string
		parts int
	}{
		{"-lecture", "Fast-Paced Multiplayer, Parts I-IV", 4},
		{"-lecture -speed 1/2", "Fast-Paced Multiplayer, Parts I-IV", 4},
		{"-lecture " + talk, "My talk", 2},
		{"-lecture " + talk + " -latency 300ms", "My talk", 2},
		{"-lecture=" + talk, "My talk", 2},
	} {
		l, _, err := newLab(strings.Fields(c.args), io.Discard, time.Now)
		if err != nil {
			t.Fatalf("gridlag lab %s: %v", c.args, err)
		}
		ls, ok := l.Lesson()
		if !ok || ls.Lecture != c.title || len(ls.Parts) != c.parts || ls.Part != 0 {
			t.Errorf("gridlag lab %s: %+v", c.args, ls)
		}
	}
	for _, c := range []struct{ args, want string }{
		{"-lecture -lesson 2", "give -lesson or -lecture, not both"},
		{"-lecture -record x.rec", "give -lesson, -lecture or -record"},
		{"-lecture " + filepath.Join(dir, "none.lec"), "-lecture: open"},
		{talk, "unexpected argument \"" + talk + "\": a lecture file comes after -lecture"},
		{"-lecture=" + talk + " " + talk, "-lecture=" + talk + " names the lecture already"},
		{"-lecture " + talk + " " + talk, "unexpected argument"},
	} {
		if _, _, err := newLab(strings.Fields(c.args), io.Discard, time.Now); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("gridlag lab %s: %v, want an error saying %q", c.args, err, c.want)
		}
	}
	// The command line as gridlag reads it: the file after -lecture is
	// the command's argument, flags before or after it.
	for _, line := range [][]string{{"lab", "-lecture", talk}, {"lab", "-lecture", talk, "-paused"}, {"lab", "-paused", "-lecture", talk}} {
		inv, err := parse(line, io.Discard)
		if err != nil || inv.cmd != labCommand || !slices.Equal(inv.args, []string{talk}) {
			t.Errorf("gridlag %s: %v", strings.Join(line, " "), err)
		}
	}
	if _, err := parse([]string{"lab", "-lecture", talk, "more"}, io.Discard); err == nil || !strings.Contains(err.Error(), "a lecture file comes after -lecture") {
		t.Errorf("gridlag lab -lecture FILE more: %v", err)
	}
	var out bytes.Buffer
	if l, _, err := newLab([]string{"-print-lecture"}, &out, time.Now); err != nil || l != nil || out.String() != lab.DefaultLectureFile {
		t.Errorf("-print-lecture: %v, printed %q", err, out.String())
	}
	l, _, err := newLab(nil, io.Discard, time.Now)
	if err != nil || l.Offer() != "Fast-Paced Multiplayer, Parts I-IV" {
		t.Errorf("gridlag lab offers %q (%v)", l.Offer(), err)
	}
	l, _, err = newLab([]string{"-record", filepath.Join(dir, "r.rec")}, io.Discard, time.Now)
	if err != nil || l.Offer() != "" {
		t.Errorf("gridlag lab -record offers %q (%v)", l.Offer(), err)
	}
}

// TestLectureInTmux: `gridlag lab -lecture` in a real terminal. At
// 160x45 the continue key alone walks the whole talk, Parts I to IV,
// every step (at 1x: / at each step's start), the index marking each
// part in turn, to "The end of the lecture"; at 100x30 and 80x24 > and <
// go from part to part, the index saying which. The waits are hang
// guards (admittest.Hung), not bounds on speed.
func TestLectureInTmux(t *testing.T) {
	t.Parallel() // the binary in a process of its own, mostly waited on: see TestMain
	if testing.Short() {
		t.Skip("end-to-end")
	}
	bin := buildBinary(t)
	t.Run("160x45", func(t *testing.T) {
		tm := newTmux(t, 160, 45, fmt.Sprintf("%s lab -lecture -log %s; echo EXIT=$?; sleep 60", bin, filepath.Join(t.TempDir(), "lab.log")))
		tm.waitFor("[I: round trip]", "[Space: run the step]")
		button := regexp.MustCompile(`\[Space: ([^\]]+)\]`)
		wait := regexp.MustCompile(`▸ Player (\d): press (\w+)`)
		marked := regexp.MustCompile(`\[(I|II|III|IV): [a-z ]+\]`)
		var parts []string
		last := ""
		for presses := 0; ; presses++ {
			if presses > 500 { // the four parts take about a hundred
				t.Fatalf("the lecture did not end after %d key presses; parts seen %q:\n%s", presses, parts, last)
			}
			var s string
			tm.waitUntil("a key to press or the lecture's end", func(now string) bool {
				s = now
				return strings.Contains(now, "The end of the lecture") ||
					now != last && (wait.MatchString(now) || button.MatchString(now))
			})
			if m := marked.FindStringSubmatch(s); m != nil && (len(parts) == 0 || parts[len(parts)-1] != m[1]) {
				parts = append(parts, m[1])
			}
			if strings.Contains(s, "The end of the lecture") {
				break
			}
			switch m := button.FindStringSubmatch(s); {
			case wait.MatchString(s):
				w := wait.FindStringSubmatch(s)
				key := map[string]string{"RIGHT": "Right", "LEFT": "Left", "UP": "Up", "DOWN": "Down", "ZAP": "Enter"}[w[2]]
				tm.keys(key)
			case m[1] == "run the step":
				if strings.Contains(s, "speed 1/10") {
					tm.keys("/") // 1/10 is the slowest: / goes to 1x
					tm.waitFor("speed 1x")
				}
				tm.keys("Space")
			default:
				tm.keys("Space")
			}
			last = s
			tm.waitUntil("the screen to change", func(now string) bool { return now != s })
		}
		if want := []string{"I", "II", "III", "IV"}; strings.Join(parts, " ") != strings.Join(want, " ") {
			t.Errorf("the index marked parts %q, want %q", parts, want)
		}
	})
	for _, size := range [][2]int{{100, 30}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			tm := newTmux(t, size[0], size[1], fmt.Sprintf("%s lab -lecture -log %s; echo EXIT=$?; sleep 60", bin, filepath.Join(t.TempDir(), "lab.log")))
			tm.waitFor("part 1 of 4: I: round trip", "< >")
			for i, label := range []string{"II: prediction", "III: interpolation", "IV: lag compensation"} {
				tm.keys(">")
				tm.waitFor(fmt.Sprintf("part %d of 4: %s", i+2, label))
			}
			tm.keys("<") // at Part IV's start: the part before
			tm.waitFor("part 3 of 4: III: interpolation", "t 0.000s")
			tm.keys("Space") // run its first step
			tm.waitUntil("the clock to run", func(s string) bool { return !strings.Contains(s, "t 0.000s") })
			tm.keys("<") // mid-part: its start again
			tm.waitFor("part 3 of 4: III: interpolation", "t 0.000s", "[Space: run the step]")
			tm.keys("q")
			tm.waitFor("EXIT=0")
		})
	}
}
