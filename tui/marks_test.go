package tui

import (
	"math/rand/v2"
	"strings"
	"testing"

	"gridlag/grid"
)

// roster makes the players of a test, IDs 1, 2, ... in order.
func roster(names ...string) []markee {
	r := make([]markee, len(names))
	for i, n := range names {
		r[i] = markee{grid.PlayerID(i + 1), n}
	}
	return r
}

// TestRoomMarks: a classroom's logins that share a first letter are told
// apart by where they differ, a name alone on its first letter keeps
// it, the lab's two players are 1 and 2, and no two players share a
// mark, whatever the order a screen lists them in.
func TestRoomMarks(t *testing.T) {
	cases := []struct {
		names []string
		want  []string
	}{
		{[]string{"stud2", "stud3", "stud4", "stud5"}, []string{"2", "3", "4", "5"}},
		// People before bots: the bots came first, the students keep
		// their digits, bot-1 its own.
		{[]string{"bot-1", "bot-2", "bot-3", "stud2", "stud3", "stud4", "stud5"}, []string{"1", "A", "B", "2", "3", "4", "5"}},
		{[]string{"Player 1", "Player 2"}, []string{"1", "2"}},
		{[]string{"ada", "bob"}, []string{"a", "b"}},
		{[]string{"alice", "anna", "bob"}, []string{"l", "n", "b"}},
		{[]string{"stud2", "stud2-2"}, []string{"2", "A"}},
		{[]string{"Sam", "sue"}, []string{"a", "u"}},
		{[]string{"", "山田", "ada"}, []string{"A", "B", "a"}},
	}
	for _, c := range cases {
		got := roomMarks(roster(c.names...))
		var marks []string
		for i := range c.names {
			marks = append(marks, got[grid.PlayerID(i+1)])
		}
		if strings.Join(marks, " ") != strings.Join(c.want, " ") {
			t.Errorf("marks of %q: %q, want %q", c.names, marks, c.want)
		}
		distinct(t, c.names, got)
	}
}

// distinct fails if two players of names share a mark.
func distinct(t *testing.T, names []string, got map[grid.PlayerID]string) {
	t.Helper()
	seen := map[string]string{}
	for i, n := range names {
		m := got[grid.PlayerID(i+1)]
		if m == "" || textWidth(m) != 1 {
			t.Errorf("%q is marked %q", n, m)
		}
		if o, ok := seen[m]; ok {
			t.Errorf("%q and %q share the mark %q", o, n, m)
		}
		seen[m] = n
	}
}

// TestRoomMarksIgnoreOrder: a screen that lists the same players in
// another order (a scoreboard by points, a board by ID) marks them
// alike; a class of 40 logins is 40 marks.
func TestRoomMarksIgnoreOrder(t *testing.T) {
	var names []string
	for i := range 40 {
		names = append(names, "stud"+string(rune('0'+i/10))+string(rune('0'+i%10)))
	}
	names = append(names, "ada", "anna", "bot-1", "bot-2")
	r := roster(names...)
	want := roomMarks(r)
	distinct(t, names, want)
	for range 20 {
		rand.Shuffle(len(r), func(i, j int) { r[i], r[j] = r[j], r[i] })
		got := roomMarks(append(r, r[0])) // listed twice: once
		for id, m := range want {
			if got[id] != m {
				t.Fatalf("player %d is %q in one order, %q in another", id, m, got[id])
			}
		}
	}
}
