package main

import (
	"encoding/csv"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gridlag/internal/perception"
)

// TestPerceptionTestInTmux: issue 35's class, all real: gridlag teach in
// a terminal of 80x24 (with -ssh and a short -perception run), three
// students over OpenSSH in theirs and a projector (gridlag watch). The
// teacher presses e; each round every student's screen shows its round
// and no round trip anywhere (nor does the teacher's class list); each
// student answers with y or n, s1 always laggy, s2 always fine, s3 in
// turn. At the end the projector and the teacher's screen plot the
// class, each student sees their own results, and the CSV the server
// saved has one row per student and round with exactly the answers
// given, and each student's round trips are the run's design.
func TestPerceptionTestInTmux(t *testing.T) {
	t.Parallel() // the binary in a process of its own, mostly waited on: see TestMain
	if testing.Short() {
		t.Skip("end-to-end")
	}
	if _, err := exec.LookPath("ssh"); err != nil {
		t.Skip("end-to-end test needs ssh, which is not installed")
	}
	bin := buildBinary(t)
	addr, sshAddr := freeAddr(t), freeAddr(t)
	state := t.TempDir()
	const design = "levels=0,300 repeats=1 controls=1 play=2s answer=60s"
	settings, err := perception.ParseSettings(design)
	if err != nil {
		t.Fatal(err)
	}
	rounds := settings.Rounds() // 3: 0 and 300 ms once, one zero-lag control
	teacher := newTmux(t, 80, 24, fmt.Sprintf("XDG_STATE_HOME=%s %s teach lecture -addr %s -ssh %s -name hopper -drain 0s -log %s -perception '%s'; echo EXIT=$?; sleep 60",
		state, bin, addr, sshAddr, filepath.Join(state, "server.log"), design))
	teacher.waitFor("teaching", "room lecture", "Perception [start]")

	host, port, _ := strings.Cut(sshAddr, ":")
	ssh := opensshLine(port, "-t")
	names := []string{"s1", "s2", "s3"}
	students := map[string]*tmux{}
	for _, name := range names {
		students[name] = newTmux(t, 80, 24, fmt.Sprintf("%s %s@%s room lecture; echo EXIT=$?; sleep 60", ssh, name, host))
	}
	projector := newTmux(t, 80, 24, fmt.Sprintf("XDG_STATE_HOME=%s %s watch %s -room lecture; echo EXIT=$?; sleep 60", state, bin, addr))
	for _, name := range names {
		students[name].waitFor("teacher: no added lag")
	}
	teacher.waitFor("3 students")
	projector.waitFor("room lecture", "3 players")

	teacher.keys("e")
	// answer is what each student says in round r (from 1): y or n.
	answer := func(name string, r int) string {
		switch name {
		case "s1":
			return "y"
		case "s2":
			return "n"
		}
		return []string{"y", "n"}[(r-1)%2]
	}
	roundTrip := regexp.MustCompile(`\d+ms`)
	for r := 1; r <= rounds; r++ {
		for _, name := range names {
			screen := students[name].waitFor(fmt.Sprintf("round %d of %d", r, rounds), "did that feel laggy?")
			if m := roundTrip.FindString(screen); m != "" {
				t.Errorf("round %d: %s's screen shows a round trip (%s):\n%s", r, name, m, screen)
			}
		}
		if screen := teacher.screen(); roundTrip.MatchString(screen[max(strings.Index(screen, "Class"), 0):]) {
			t.Errorf("round %d: the teacher's class list shows a round trip:\n%s", r, screen)
		}
		for _, name := range names {
			students[name].keys(answer(name, r))
		}
	}

	projector.waitFor("Perception test: who felt lag", "Thresholds", "answers saved:")
	teacher.waitFor("Perception test: who felt lag", "answers saved:")
	for _, name := range names {
		students[name].waitFor("Perception test: your answers", fmt.Sprintf("%d rounds, %d answered", rounds, rounds))
	}

	rows := answersCSV(t, state, "lecture")
	if len(rows) != 1+rounds*len(names) || !slices.Equal(rows[0], perception.CSVHeader) {
		t.Fatalf("the CSV has %d rows, want the header and %d:\n%v", len(rows), rounds*len(names), rows)
	}
	word := map[string]string{"y": "laggy", "n": "fine"}
	trips := map[string][]string{}
	for _, row := range rows[1:] {
		round, name, rtt, got := mustAtoi(t, row[1]), row[3], row[5], row[6]
		if want := word[answer(name, round)]; got != want || row[4] != "on" {
			t.Errorf("%s's round %d in the CSV: %s, prediction %s; the student answered %s, prediction on", name, round, got, row[4], want)
		}
		trips[name] = append(trips[name], rtt)
	}
	for _, name := range names {
		slices.Sort(trips[name])
		if !slices.Equal(trips[name], []string{"0", "0", "300"}) {
			t.Errorf("%s's round trips in the CSV: %v, want the design's 0, 0 (the control) and 300", name, trips[name])
		}
	}
	t.Logf("the projector at the end:\n%s", projector.screen())
}

// TestLabPerceptionInTmux is the lab's perception test, one student
// alone, in a real terminal of 80x24: `gridlag lab -perception` starts
// it; each round the screen shows Player 1's board and the question,
// and no round trip anywhere (not the round's, not Player 1's own 250
// ms); the student answers y or n in turn; at the end the screen plots
// the two curves, prediction on and off, and the CSV has exactly the
// answers given.
func TestLabPerceptionInTmux(t *testing.T) {
	t.Parallel() // the binary in a process of its own, mostly waited on: see TestMain
	if testing.Short() {
		t.Skip("end-to-end")
	}
	bin := buildBinary(t)
	state := t.TempDir()
	const design = "levels=0,370 repeats=1 controls=1 play=2s answer=60s"
	settings, err := perception.ParseSettings(design + " predict=both")
	if err != nil {
		t.Fatal(err)
	}
	rounds := settings.Rounds() // 6: 0 and 370 ms once and a control, prediction on and off
	tm := newTmux(t, 80, 24, fmt.Sprintf("XDG_STATE_HOME=%s %s lab -log %s -perception='%s'; echo EXIT=$?; sleep 60",
		state, bin, filepath.Join(state, "lab.log"), design))
	answer := func(r int) string { return []string{"y", "n"}[(r-1)%2] }
	hidden := regexp.MustCompile(`\d+ ?ms|370|250`)
	for r := 1; r <= rounds; r++ {
		screen := tm.waitFor(fmt.Sprintf("round %d of %d", r, rounds), "Did that feel laggy?", "Player 1 (you)")
		if m := hidden.FindString(screen); m != "" {
			t.Errorf("round %d: the screen shows a round trip (%s):\n%s", r, m, screen)
		}
		if r == 1 {
			t.Logf("the lab in round 1, answering:\n%s", screen)
		}
		tm.keys(answer(r))
	}
	screen := tm.waitFor("how much lag did Player 1 feel?", "Your threshold", "prediction on", "prediction off", "answers saved:", "Esc back to the lab")
	t.Logf("the lab at the end:\n%s", screen)
	rows := answersCSV(t, state, "lab")
	if len(rows) != 1+rounds || !slices.Equal(rows[0], perception.CSVHeader) {
		t.Fatalf("the CSV has %d rows, want the header and %d:\n%v", len(rows), rounds, rows)
	}
	word := map[string]string{"y": "laggy", "n": "fine"}
	count := map[string]int{}
	for _, row := range rows[1:] {
		round := mustAtoi(t, row[1])
		if want := word[answer(round)]; row[6] != want || row[3] != "Player 1" {
			t.Errorf("round %d in the CSV: %s by %s; the student answered %s", round, row[6], row[3], want)
		}
		count[row[4]+" "+row[5]]++
	}
	if want := map[string]int{"on 0": 2, "on 370": 1, "off 0": 2, "off 370": 1}; !maps.Equal(count, want) {
		t.Errorf("the CSV's rounds %v, want the design's %v", count, want)
	}
	tm.keys("Escape")
	tm.waitFor("Player 1", "rtt 250ms", "lag    [-]  250ms [+]") // its own link back
	tm.keys("q")
	tm.waitFor("EXIT=0")
}

// answersCSV returns the rows of the one CSV of the perception test's
// answers of room (or "lab") in the state directory state.
func answersCSV(t *testing.T, state, room string) [][]string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(state, "gridlag", "perception", "perception-"+room+"-*.csv"))
	if len(files) != 1 {
		t.Fatalf("want one CSV of %s, got %v", room, files)
	}
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}
