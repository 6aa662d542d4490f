package tui_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/world"
)

// TestPanelFitsAnyMap: on a map 12 rows high, or 8, at 80x24 and larger,
// the panel shows the game whole: the round's clock, the zap's result or
// the tag (the latest), the freeze countdown, the top of the scoreboard
// and your own line.
func TestPanelFitsAnyMap(t *testing.T) {
	for _, m := range []*grid.Map{openMap(t, 60, 12), openMap(t, 20, 8), openMap(t, 1024, 12)} {
		for _, size := range [][2]int{{80, 24}, {100, 30}, {200, 60}} {
			r, s := newStubRig(t, size[0], size[1])
			s.view.Map, s.view.Predicted, s.view.Server = m, grid.Pos{X: 5, Y: 5}, grid.Pos{X: 5, Y: 5}
			s.view.Round, s.view.RoundLeft, s.view.Facing = 2, 161*time.Second, grid.Right
			s.view.Scoreboard = scoreboard()
			s.view.LastZap = &client.ZapResult{At: time.Second, Outcome: protocol.ZapHit, Target: "ada", Rewind: 230 * time.Millisecond}
			r.ui.Frame()
			r.mustShow("Round 2  2:41 left", "hit ada (rewound 230ms)", " 1 a ada", " 6 ▶ alice")
			s.view.LastTagged = &client.TagNote{At: 3 * time.Second, By: "bob", Seen: grid.Pos{X: 12, Y: 10}, Ago: 230 * time.Millisecond}
			s.view.Frozen, s.view.Now, s.view.FrozenUntil = true, 3*time.Second, 4400*time.Millisecond
			r.ui.Frame()
			r.mustShow("FROZEN 1.4s", "tagged by bob, who saw you at", "(12,10) 230ms ago", " 1 a ada", " 6 ▶ alice")
			if !r.avatarAt(s.view.Predicted) {
				t.Errorf("%dx%d map, %dx%d screen: no avatar at %v:\n%s", m.Width(), m.Height(), size[0], size[1], s.view.Predicted, r.text())
			}
		}
	}
}

// column returns the screen column where s starts on the row that shows
// it, counting the columns each cell's character takes.
func (r simTerm) column(s string) int {
	r.t.Helper()
	cells, w, h := r.screen.GetContents()
	for y := range h {
		row, cols := "", []int{}
		for x := range w {
			c := cells[y*w+x]
			if len(c.Runes) == 0 {
				continue // the second column of a wide character
			}
			for range string(c.Runes) {
				cols = append(cols, x)
			}
			row += string(c.Runes)
		}
		if i := strings.Index(row, s); i >= 0 {
			return cols[len([]rune(row[:i]))]
		}
	}
	r.t.Fatalf("screen does not show %q:\n%s", s, r.text())
	return 0
}

// TestWideNamesLineUp: names of wide characters (CJK, an emoji) take two
// columns a character; the scoreboard's points and the spectator's cells
// line up all the same.
func TestWideNamesLineUp(t *testing.T) {
	r, s := newStubRig(t, 80, 24)
	s.view.Scoreboard = []client.ScoreLine{
		{ID: 2, Name: "日本語", Points: 12},
		{ID: 3, Name: "🎉 party", Points: 11},
		{ID: 4, Name: "ünïcödé", Points: 10},
		{ID: 1, Name: "alice", Me: true, Points: 9},
	}
	r.ui.Frame()
	want := r.column("12")
	for _, p := range []string{"11", "10", " 9"} {
		if got := r.column(p); got != want {
			t.Errorf("points %q at column %d, want %d:\n%s", p, got, want, r.text())
		}
	}

	sr := newSpectateRig(t, 120, 40)
	sr.watch.view.Players = []client.WorldPlayer{
		{ID: 1, Name: "日本語", Color: 1, Pos: grid.Pos{X: 10, Y: 10}, Ack: 7},
		{ID: 2, Name: "🎉 party", Color: 2, Pos: grid.Pos{X: 3, Y: 1}, Ack: 12},
		{ID: 3, Name: "ada", Color: 3, Pos: grid.Pos{X: 5, Y: 2}, Ack: 1},
	}
	sr.s.Frame()
	want = sr.column("(10,10)")
	for _, p := range []string{"(3,1)", "(5,2)"} {
		if got := sr.column(p); got != want {
			t.Errorf("cell %q at column %d, want %d:\n%s", p, got, want, sr.text())
		}
	}
}

// TestProtectionShows: a protected player is underlined on the board,
// you and the others alike, and your panel counts your protection down;
// the spectator's board and lines show it too.
func TestProtectionShows(t *testing.T) {
	r, s := newStubRig(t, 80, 24)
	bob := grid.Pos{X: 14, Y: 10}
	s.view.Others = []client.Other{{ID: 2, Name: "bob", Color: 2, Pos: bob, Protected: true}}
	s.view.Protected, s.view.Now, s.view.ProtectedUntil = true, time.Second, 2400*time.Millisecond
	s.view.Round, s.view.RoundLeft = 1, time.Minute
	s.view.Scoreboard = []client.ScoreLine{{ID: 2, Name: "bob", Color: 2, Protected: true}, {ID: 1, Name: "alice", Me: true, Protected: true}}
	r.ui.Frame()
	r.mustShow("SAFE 1.4s")
	if row := r.rowWith(" b bob"); !strings.Contains(row, "0 safe") {
		t.Errorf("bob's line %q, want him safe", row)
	}
	for _, p := range []grid.Pos{spawn, bob} {
		if _, st := r.cell(p); !underlined(st) {
			t.Errorf("cell %v not underlined while protected", p)
		}
	}
	s.view.Protected, s.view.Others[0].Protected = false, false
	s.view.Online, s.view.Scoreboard = 40, scoreboard()
	r.ui.Frame()
	r.mustNotShow("SAFE")
	r.mustShow("40 online")
	for _, p := range []grid.Pos{spawn, bob} {
		if _, st := r.cell(p); underlined(st) {
			t.Errorf("cell %v still underlined", p)
		}
	}

	sr := newSpectateRig(t, 120, 40)
	sr.watch.view.Players[0].Protected = true
	sr.s.Frame()
	sr.mustShow("ada   (10,10) ack #7  rtt 48ms  safe")
}

// underlined reports whether st underlines.
func underlined(st tcell.Style) bool {
	_, _, attrs := st.Decompose()
	return attrs&tcell.AttrUnderline != 0
}

// TestScoreboardListsTheRoom: on a map too big to see across, the panel's
// scoreboard lists the bots far out of view by name, as the server's
// Ranking gives them, though the board shows none of them.
func TestScoreboardListsTheRoom(t *testing.T) {
	r := newRigOn(t, world.Config{Rate: 20, Map: openMap(t, 1000, 200)}, client.Options{})
	for i := 1; i <= 3; i++ {
		if v := r.world.Join(fmt.Sprintf("bot-%d", i), client.Options{Bot: true}).View(); v.Err != nil {
			t.Fatal(v.Err)
		}
	}
	r.world.PingEvery(time.Second) // as the TCP server does: the joins' scoreboard
	r.advance(2 * time.Second)
	if v := r.me.View(); len(v.Others) != 0 {
		t.Fatalf("alice sees %+v: the test needs the bots out of her view", v.Others)
	}
	r.mustShow(" 1 1 bot-1", " 1 2 bot-2", " 1 3 bot-3", "▶ alice")
}
