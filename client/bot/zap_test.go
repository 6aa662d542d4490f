package bot

import (
	"context"
	"fmt"
	"testing"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/lab/sim"
	"gridlag/protocol"
	"gridlag/server/world"
)

// lineView is a view of a bot at (1,1) facing right, with another player
// at (3,1) in its line.
func lineView(t *testing.T) client.View {
	t.Helper()
	m, err := grid.ParseMap("#######\n#.....#\n#######\n")
	if err != nil {
		t.Fatal(err)
	}
	return client.View{
		Connected: true, HasState: true, Map: m, Me: 1, Predicted: grid.Pos{X: 1, Y: 1}, Facing: grid.Right,
		Others: []client.Other{{ID: 2, Pos: grid.Pos{X: 3, Y: 1}}},
	}
}

// TestTriggerReactsLikeAPerson: a bot zaps a reaction time after someone
// came into line, not before, once per cooldown, and never frozen or with
// nobody in line.
func TestTriggerReactsLikeAPerson(t *testing.T) {
	v := lineView(t)
	tr := NewTrigger(1)
	zap, wake, ok := tr.Pull(0, v)
	if zap || !ok || wake < MinReaction || wake > MaxReaction {
		t.Fatalf("someone came into line: zap %v, wake %v; want a wait of %v to %v", zap, wake, MinReaction, MaxReaction)
	}
	if zap, _, _ := tr.Pull(wake-time.Millisecond, v); zap {
		t.Error("zapped before the reaction time")
	}
	if zap, _, _ := tr.Pull(wake, v); !zap {
		t.Error("no zap after the reaction time")
	}
	if zap, _, _ := tr.Pull(wake+MaxReaction+time.Millisecond, v); zap {
		t.Error("zapped again within the cooldown")
	}
	away := v
	away.Others = []client.Other{{ID: 2, Pos: grid.Pos{X: 3, Y: 2}}}
	if zap, _, ok := tr.Pull(5*time.Second, away); zap || ok {
		t.Error("zapped with nobody in line")
	}
	frozen := v
	frozen.Frozen = true
	for at := 5 * time.Second; at < 7*time.Second; at += 100 * time.Millisecond {
		if zap, _, _ := tr.Pull(at, frozen); zap {
			t.Fatal("zapped while frozen")
		}
	}
}

// serverWord records, as a sim world runs, every score and freeze the
// server has had: what a client may show.
type serverWord struct {
	points  map[grid.PlayerID]map[int]bool
	frozen  map[grid.PlayerID]bool
	entries []protocol.ScoreEntry
}

func (sw *serverWord) note(w *sim.World) {
	sw.entries = w.Server().Scoreboard(sw.entries[:0])
	for _, e := range sw.entries {
		if sw.points[e.ID] == nil {
			sw.points[e.ID] = map[int]bool{}
		}
		sw.points[e.ID][int(e.Points)] = true
		sw.frozen[e.ID] = sw.frozen[e.ID] || e.Frozen
	}
}

// TestNoClientShowsWhatTheServerDidNotSend: bots zap each other in a small
// room; at every moment of the run, every client's scoreboard and freeze
// show only scores and freezes the server has had. The summary counts the
// zaps and tags as the server does, and a round ends and restarts.
func TestNoClientShowsWhatTheServerDidNotSend(t *testing.T) {
	t.Parallel()
	m, err := grid.ParseMap("#########\n#.......#\n#.......#\n#.......#\n#########\n")
	if err != nil {
		t.Fatal(err)
	}
	w := sim.New(world.Config{Rate: 20, Map: m, Spawn: grid.Pos{X: 4, Y: 2}, LagComp: true, Unlag: world.DefaultUnlag, Round: 3 * time.Second})
	word := &serverWord{points: map[grid.PlayerID]map[int]bool{}, frozen: map[grid.PlayerID]bool{}}
	var bad []string
	var clients []*sim.Client
	w.Trace(func(e sim.Event) {
		word.note(w)
		for _, c := range clients {
			v := c.ViewLocked()
			for _, l := range v.Scoreboard {
				if !word.points[l.ID][l.Points] {
					bad = append(bad, fmt.Sprintf("%v: %s shows %s with %d points", e.T, c.Name(), l.Name, l.Points))
				}
				if l.Frozen && !word.frozen[l.ID] {
					bad = append(bad, fmt.Sprintf("%v: %s shows %s frozen", e.T, c.Name(), l.Name))
				}
			}
			if v.Frozen && !word.frozen[v.Me] {
				bad = append(bad, fmt.Sprintf("%v: %s shows itself frozen", e.T, c.Name()))
			}
		}
	})
	s := simRun(t, w, Options{N: 5, Duration: 4 * time.Second, Latency: 150 * time.Millisecond, Jitter: 20 * time.Millisecond, Seed: 4},
		func(_ time.Duration, cs []*sim.Client) { clients = cs })
	w.Trace(nil)
	if len(bad) > 0 {
		t.Errorf("%d views showed what the server did not send, first: %v", len(bad), bad[:min(len(bad), 5)])
	}
	st := w.Server().Stats()
	if s.ZapsSent == 0 || s.TagsMade == 0 {
		t.Fatalf("no zap or no tag in 4 s of 5 bots in a small room: %+v", s)
	}
	if uint64(s.ZapsSent) != st.Zaps || uint64(s.TagsMade) != st.Tags || s.TagsSuffered != s.TagsMade {
		t.Errorf("summary: %d zaps, %d tags made, %d suffered; server: %d zaps, %d tags", s.ZapsSent, s.TagsMade, s.TagsSuffered, st.Zaps, st.Tags)
	}
	if st.Rounds != 1 {
		t.Errorf("%d rounds ended in 4 s of 3 s rounds, want 1", st.Rounds)
	}
	t.Logf("%d zaps, %d tags, %d respawns", st.Zaps, st.Tags, st.Respawns)
}

// TestBotsZapOverTCP: bots on a real server in a small room zap and tag
// each other, and their summary agrees with the server's counts.
func TestBotsZapOverTCP(t *testing.T) {
	t.Parallel()
	m, err := grid.ParseMap("#######\n#.....#\n#.....#\n#######\n")
	if err != nil {
		t.Fatal(err)
	}
	srv, addr := startServer(t, world.Config{Rate: 20, Map: m, Spawn: grid.Pos{X: 3, Y: 1}, LagComp: true, Unlag: world.DefaultUnlag})
	s, err := Run(context.Background(), Options{Addr: addr, N: 4, Duration: 2 * time.Second, Seed: 2})
	if err != nil || len(s.Errors) != 0 {
		t.Fatalf("run: %v, %v", err, s.Errors)
	}
	st := srv.Stats()
	if s.ZapsSent == 0 || uint64(s.ZapsSent) != st.Zaps || uint64(s.TagsMade) != st.Tags || s.TagsSuffered > s.TagsMade {
		t.Errorf("summary: %d zaps, %d tags made, %d suffered; server: %d zaps, %d tags", s.ZapsSent, s.TagsMade, s.TagsSuffered, st.Zaps, st.Tags)
	}
}
