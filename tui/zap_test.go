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
	"gridlag/tui"
)

// newStubRig draws a stub session's view on a w x h terminal: the
// default map, the player at the spawn.
func newStubRig(t *testing.T, w, h int) (*rig, *stubSession) {
	t.Helper()
	s := newStubSession(client.View{Name: "alice", Map: grid.DefaultMap(), HasState: true,
		Predicted: spawn, Server: spawn, Predict: true, Reconcile: true, Interpolate: true})
	r := newSessionRig(t, s, w, h)
	r.ui.Frame()
	return r, s
}

// Space zaps: the session gets the zap (pending as "zap" in the ledger),
// the beam shows at once along the facing, and is gone after the flash.
func TestSpaceZapsAndTheBeamFlashes(t *testing.T) {
	r := newRig(t, client.Options{Latency: 200 * time.Millisecond})
	r.advance(time.Second)
	r.key(tcell.KeyUp)
	r.advance(time.Second)
	r.char(' ')
	v := r.me.View()
	if len(v.Pending) != 1 || !v.Pending[0].Zap {
		t.Fatalf("after Space, pending %+v: want one zap", v.Pending)
	}
	pending := fmt.Sprintf("#%d     zap", v.Pending[0].Seq)
	r.mustShow(pending)
	me := v.Predicted
	if len(v.Beam) == 0 {
		t.Fatalf("no beam in the view after a zap from %v facing up", me)
	}
	for _, p := range v.Beam {
		if s, st := r.cell(p); s != "│" || fg(st) != tcell.ColorYellow {
			t.Errorf("beam cell %v drawn as %q %v, want a yellow │", p, s, st)
		}
	}
	r.advance(client.BeamFlash)
	for _, p := range v.Beam {
		if s, _ := r.cell(p); s != "·" {
			t.Errorf("beam cell %v still drawn as %q after the flash", p, s)
		}
	}
	r.advance(time.Second)
	r.mustNotShow(pending) // acknowledged: out of the ledger
}

// The avatar is an arrow the way the player last pressed; the ghost keeps
// its "@".
func TestAvatarShowsFacing(t *testing.T) {
	r := newRig(t, client.Options{Latency: 400 * time.Millisecond})
	r.advance(time.Second)
	for _, c := range []struct {
		key  tcell.Key
		want string
	}{{tcell.KeyRight, "▶"}, {tcell.KeyDown, "▼"}, {tcell.KeyLeft, "◀"}, {tcell.KeyUp, "▲"}} {
		r.key(c.key)
		if v := r.me.View(); v.Server != v.Predicted && !r.ghostAt(v.Server) {
			t.Errorf("the ghost at %v lost its @:\n%s", v.Server, r.text())
		}
		r.advance(200 * time.Millisecond) // the next move is allowed
		if s, _ := r.cell(r.me.View().Predicted); s != c.want {
			t.Errorf("after %v the avatar is %q, want %q", c.key, s, c.want)
		}
	}
}

// scoreboard is eight players, alice (you) sixth, a bot second and
// frozen.
func scoreboard() []client.ScoreLine {
	names := []string{"ada", "bot-1", "bob", "cy", "dee", "alice", "eve", "fay"}
	var lines []client.ScoreLine
	for i, n := range names {
		lines = append(lines, client.ScoreLine{ID: grid.PlayerID(i + 1), Name: n, Bot: n == "bot-1",
			Me: n == "alice", Frozen: n == "bot-1", Points: 9 - i})
	}
	return lines
}

// The scoreboard lists players by score, bots on a block of their colour
// as on the board, frozen marked; when they do not all fit (at 80x24 the
// top four, at 120x40 five), it keeps the top ones and your own rank.
func TestScoreboard(t *testing.T) {
	for _, size := range []struct {
		w, h   int
		hidden []string
	}{{80, 24, []string{"dee", "eve", "fay"}}, {120, 40, []string{"eve", "fay"}}} {
		r, s := newStubRig(t, size.w, size.h)
		s.view.Round, s.view.RoundLeft, s.view.Facing = 2, 161*time.Second, grid.Right
		s.view.Scoreboard = scoreboard()
		s.view.Others = []client.Other{{ID: 1, Name: "ada", Color: 1, Pos: grid.Pos{X: 3, Y: 3}}, {ID: 2, Name: "bot-1", Color: 2, Pos: grid.Pos{X: 4, Y: 4}}}
		r.ui.Frame()
		r.mustShow("Round 2  2:41 left")
		// ada and alice share a, bob and bot-1 b: each is marked where
		// its name differs (see roomMarks: ada's d is dee's, so its
		// next letter), bob before the bot.
		r.mustShow(" 1 a ada")
		if row := r.rowWith(" 2 t bot-1"); !strings.Contains(row, "8 frozen") {
			t.Errorf("%dx%d: the frozen bot's line %q", size.w, size.h, row)
		}
		r.mustShow(" 3 b bob")
		if row := r.rowWith(" 6 ▶ alice"); !strings.Contains(row, " 4") {
			t.Errorf("%dx%d: your own rank and points: %q\n%s", size.w, size.h, row, r.text())
		}
		for _, name := range size.hidden {
			r.mustNotShow(name)
		}
		bx, by := r.mustFind(" 2 t bot-1")
		hx, hy := r.mustFind(" 1 a ada")
		cells, w, _ := r.screen.GetContents()
		_, botBg, _ := cells[by*w+bx+3].Style.Decompose()
		_, humanBg, _ := cells[hy*w+hx+3].Style.Decompose()
		if botBg == humanBg || botBg == tcell.ColorDefault {
			t.Errorf("%dx%d: the bot's mark (bg %v) looks like a human's (bg %v)", size.w, size.h, botBg, humanBg)
		}
	}
}

// The hit, miss and tagged lines and the frozen countdown come only from
// the view's fields the server fills: a view without them shows none.
func TestZapNewsOnlyFromTheServer(t *testing.T) {
	r, s := newStubRig(t, 120, 40)
	s.view.Beam = []grid.Pos{{X: 11, Y: 10}, {X: 12, Y: 10}}
	s.view.Facing = grid.Right
	r.ui.Frame()
	for _, no := range []string{"hit", "miss", "tagged", "FROZEN"} {
		r.mustNotShow(no)
	}
	s.view.LastZap = &client.ZapResult{At: time.Second, Outcome: protocol.ZapHit, Target: "ada", Rewind: 230 * time.Millisecond}
	r.ui.Frame()
	r.mustShow("hit ada (rewound 230ms)")
	s.view.LastZap = &client.ZapResult{At: 2 * time.Second, Outcome: protocol.ZapLeft, Target: "ada"}
	s.view.LastTagged = &client.TagNote{At: 3 * time.Second, By: "bob", Seen: grid.Pos{X: 12, Y: 10}, Ago: 230 * time.Millisecond}
	s.view.Frozen, s.view.Now, s.view.FrozenUntil = true, 3*time.Second, 4400*time.Millisecond
	r.ui.Frame()
	r.mustShow("miss: ada had left the line")
	r.mustShow("tagged by bob, who saw you at")
	r.mustShow("(12,10) 230ms ago")
	r.mustShow("FROZEN 1.4s")
	s.view.Scoreboard = scoreboard()
	r.resize(80, 24) // less room: the latest news stays, whole, beside the top two and you
	r.mustShow("tagged by bob, who saw you at")
	r.mustShow("(12,10) 230ms ago")
	r.mustNotShow("miss: ada")
	r.mustShow(" 2 t bot-1")
	r.mustShow(" 6 ▶ alice")
	r.mustNotShow(" 3 b bob")
}

// When the round moves on, the board shows its winner for a few seconds.
func TestWinnerBanner(t *testing.T) {
	r, s := newStubRig(t, 80, 24)
	s.view.Round, s.view.LastWinner = 3, &client.Winner{Name: "bob", Points: 5}
	r.ui.Frame()
	r.mustNotShow("wins") // joined mid-game: old news
	s.view.Round, s.view.LastWinner = 4, &client.Winner{Name: "ada", Points: 7}
	r.ui.Frame()
	r.mustShow("round 3: ada wins with 7")
	s.view.Now += tui.WinnerBannerTime
	r.ui.Frame()
	r.mustNotShow("round 3: ada wins")
}

// Against a real server, a hit shows only when the server says so: right
// after Space the beam is drawn but the panel has no hit and alice no
// point; a round trip later it has both, and bob's own screen says he was
// tagged, frozen.
func TestHitShowsWhenTheServerSaysSo(t *testing.T) {
	r := newRig(t, client.Options{Latency: 400 * time.Millisecond})
	bob := r.world.Join("bob", client.Options{})
	r.advance(time.Second)
	me, him := r.me.View().Predicted, bob.View().Predicted
	if me.X != him.X || him.Y != me.Y-1 {
		t.Fatalf("bob at %v is not right above alice at %v", him, me)
	}
	r.key(tcell.KeyUp) // face bob (a move onto him is blocked)
	r.advance(time.Second)
	r.char(' ')
	if len(r.me.View().Beam) == 0 {
		t.Fatalf("no beam drawn at once:\n%s", r.text())
	}
	r.mustNotShow("hit bob")
	if row := r.rowWith("▲ alice"); !strings.HasSuffix(strings.TrimRight(row, " "), " 0") {
		t.Fatalf("alice's score before the server's word: %q\n%s", row, r.text())
	}
	r.advance(time.Second)
	r.mustShow("hit bob (rewound ")
	if row := r.rowWith("▲ alice"); !strings.HasSuffix(strings.TrimRight(row, " "), " 1") {
		t.Errorf("alice's score after the hit: %q\n%s", row, r.text())
	}
	if row := r.rowWith(" b bob"); !strings.Contains(row, "0 frozen") {
		t.Errorf("bob's line after the hit: %q", row)
	}
	if v := bob.View(); v.LastTagged == nil || !v.Frozen {
		t.Errorf("bob's view: tagged %+v, frozen %v", v.LastTagged, v.Frozen)
	}
}
