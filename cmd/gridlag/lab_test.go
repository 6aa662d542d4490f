package main

import (
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/internal/doctest"
	"gridlag/lab"
	"gridlag/protocol"
)

// TestLabLagCompFlag: `gridlag lab` compensates lag unless -lagcomp=false
// says otherwise, and takes -unlag; the documented Part IV lab command is
// accepted.
func TestLabLagCompFlag(t *testing.T) {
	part4 := "-start2 12,10 -presses2 down@0ms -presses zap@150ms -latency 200ms -rate 0 -speed 1/10"
	for _, c := range []struct {
		args string
		want bool
	}{{"", true}, {"-lagcomp=false", false}, {"-lagcomp=false -unlag 0", false}, {"-unlag 200ms", true}, {part4, true}} {
		l, _, err := newLab(strings.Fields(c.args), io.Discard, time.Now)
		if err != nil {
			t.Fatalf("gridlag lab %s: %v", c.args, err)
		}
		if l.LagComp() != c.want {
			t.Errorf("gridlag lab %s: lag compensation %v, want %v", c.args, l.LagComp(), c.want)
		}
	}
}

// labHeading is the heading of the documentation's section on the lab,
// whose first sh block is the lab's commands.
const labHeading = "## `gridlag lab`"

// TestReadmeLabCommands: every lab command the documentation's section on
// the lab shows builds a lab, and the figures their comments print are
// the lab's: the Part IV case rewinds what the page says (the articles'
// case, at -rate 0), and the rehearsal command stays at t 0.000 until its
// clock is run, then plays its script and plays it again after a restart.
func TestReadmeLabCommands(t *testing.T) {
	page, section := doctest.Section(t, labHeading)
	_, block, _ := strings.Cut(section, "```sh\n")
	block, _, _ = strings.Cut(block, "```")
	rewound := regexp.MustCompile(`rewound (\d+ms)`)
	checked := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
		cmd, comment, _ := strings.Cut(line, "#")
		args, ok := strings.CutPrefix(strings.TrimSpace(cmd), "bin/gridlag lab")
		if !ok {
			t.Fatalf("%s: not a lab command in the lab's section: %q", page.Path, line)
		}
		now := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)
		wall := func() time.Time { return now }
		l, _, err := newLab(strings.Fields(args), io.Discard, wall)
		if err != nil {
			t.Fatalf("%s: %s: %v", page.Path, line, err)
		}
		run := func(d time.Duration) { // d of the lab's time, at any speed
			for end := l.Now() + d; l.Now() < end; {
				now = now.Add(10 * time.Millisecond)
				l.Sync()
			}
		}
		if m := rewound.FindStringSubmatch(comment); m != nil {
			checked["rewound"] = true
			run(time.Second)
			z, ok := l.LastZap()
			if !ok || z.Outcome != protocol.ZapHit || client.Millis(z.Rewind) != m[1] {
				t.Errorf("%s: %s: the lab judged %+v, want a hit rewound %s", page.Path, line, z, m[1])
			}
		}
		if strings.Contains(args, "-paused") {
			checked["paused"] = true
			now = now.Add(time.Hour)
			l.Sync()
			p1 := l.Players()[0]
			if l.Now() != 0 || len(p1.View().Pending) != 0 {
				t.Fatalf("%s: %s: an hour later t=%v, pending %d", page.Path, line, l.Now(), len(p1.View().Pending))
			}
			for range 2 {
				l.Resume()
				run(120 * time.Millisecond)
				if v := p1.View(); v.Predicted != (grid.Pos{X: 12, Y: 10}) || len(v.Pending) != 2 {
					t.Fatalf("%s: %s: at %v Player 1 sees itself at %v with %d pending, want (12,10) and #1 #2", page.Path, line, l.Now(), v.Predicted, len(v.Pending))
				}
				if err := l.Restart(); err != nil || l.Now() != 0 {
					t.Fatalf("%s: %s: restart: t=%v, %v", page.Path, line, l.Now(), err)
				}
			}
		}
	}
	if !checked["rewound"] || !checked["paused"] {
		t.Errorf("%s: the lab's commands lack the Part IV rewind or the rehearsal: %v", page.Path, checked)
	}
}

// TestLabLessonFlag: -lesson N gives a built-in lesson, -lesson FILE a
// teacher's own; a lesson that is not there, or a file with a mistake,
// stops with a clear error (the file and its line).
func TestLabLessonFlag(t *testing.T) {
	l, _, err := newLab([]string{"-lesson", "2"}, io.Discard, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	if ls, ok := l.Lesson(); !ok || !strings.Contains(ls.Title, "Lesson 2") || ls.Next != "run the step" {
		t.Fatalf("-lesson 2 gives %+v (in a lesson: %v)", ls, ok)
	}
	bad := t.TempDir() + "/mine.txt"
	if err := os.WriteFile(bad, []byte("title Mine\nstep One\nat 100ms\nask Where?\nansewr Here\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for args, want := range map[string]string{
		fmt.Sprintf("-lesson %d", lab.BuiltinLessons+1): fmt.Sprintf("-lesson: no lesson %d: the lessons are 1 to %d", lab.BuiltinLessons+1, lab.BuiltinLessons),
		"-lesson " + bad: `-lesson: mine.txt:5: unknown directive "ansewr"`,
	} {
		if _, _, err := newLab(strings.Fields(args), io.Discard, time.Now); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("gridlag lab %s: %v, want %q", args, err, want)
		}
	}
	var out strings.Builder
	if l, _, err := newLab([]string{"-print-lesson", "2"}, &out, time.Now); err != nil || l != nil || !strings.HasPrefix(out.String(), "# Lesson 2") {
		t.Errorf("-print-lesson 2: %v, printed %.40q", err, out.String())
	}
}

// newLab parses args as gridlag lab's and builds the lab, on the clock
// wall, writing what it prints (-print-lesson) to out.
func newLab(args []string, out io.Writer, wall func() time.Time) (*lab.Lab, *labFlags, error) {
	f := newLabFlags(out)
	f.wall = wall
	pos, err := f.fs.Parse(args)
	if err != nil {
		return nil, f, err
	}
	if len(pos) > labCommand.most {
		return nil, f, f.fs.Errorf("unexpected argument %q", pos[labCommand.most])
	}
	l, err := f.newLab(pos)
	return l, f, err
}
