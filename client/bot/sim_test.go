package bot

import (
	"fmt"
	"testing"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/lab/sim"
	"gridlag/server/world"
)

// simBot is one bot played on a simulated world.
type simBot struct {
	c       *sim.Client
	b       *Bot
	joined  time.Duration
	r       botResult
	done    bool
	dropped bool
}

// simRun plays o.N bots in w on its virtual clock for o.Duration (until
// every bot is dropped if it is 0), as Run does over TCP: each bot walks,
// stops, waits for its acknowledgements and closes. at is called at every
// moment the run looks at, with the time since the start and the bots'
// clients; it may change the world. The summary's durations are virtual.
func simRun(t *testing.T, w *sim.World, opts Options, at func(since time.Duration, clients []*sim.Client)) Summary {
	t.Helper()
	opts.Addr = "sim"
	o, err := opts.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	start := w.Now()
	bots := make([]*simBot, o.N)
	clients := make([]*sim.Client, o.N)
	for i := range bots {
		c := w.Join(o.name(i+1), o.clientOptions(i+1))
		v := c.View()
		if v.Err != nil {
			t.Fatalf("%s could not join: %v", o.name(i+1), v.Err)
		}
		bots[i] = &simBot{c: c, b: o.newBot(i+1, w.Now(), v), joined: w.Now()}
		clients[i] = c
	}
	end := start + o.Duration
	for {
		now := w.Now()
		if at != nil {
			at(now-start, clients)
		}
		next, active := now+time.Hour, false
		for i, sb := range bots {
			if sb.done {
				continue
			}
			if o.Duration > 0 && now >= end {
				sb.b.Stop(now)
			}
			if wake, ok := sb.step(now); ok {
				next, active = min(next, wake), true
				continue
			}
			sb.r = outcome(o.Logger, o.name(i+1), sb.c, sb.b, sb.dropped, now-sb.joined)
			sb.c.Close()
		}
		if !active {
			break
		}
		if o.Duration > 0 && now < end {
			next = min(next, end)
		}
		w.AdvanceTo(next)
	}
	results := make([]botResult, len(bots))
	for i, sb := range bots {
		results[i] = sb.r
	}
	return summarize(results, w.Now()-start)
}

// step gives the bot its turn at time now (turn, as the wall-clock runner);
// ok is false once the bot is done, or dropped.
func (sb *simBot) step(now time.Duration) (wake time.Duration, ok bool) {
	select {
	case <-sb.c.Done():
		sb.done, sb.dropped = true, true
		return 0, false
	default:
	}
	wake, sb.done = turn(sb.c, sb.b, now)
	return wake, !sb.done
}

// spawnWatch is a client that stands still and looks at every State it
// gets, noting any player other than the human it sees on the forbidden
// cell. (A player who left may still be drawn, nameless, until the next
// State: the human is known by ID as well as by name.)
type spawnWatch struct {
	c      *sim.Client
	human  grid.PlayerID
	bad    []string
	states int
}

// watchSpawn joins a spawnWatch to w.
func watchSpawn(w *sim.World, forbidden grid.Pos) *spawnWatch {
	sw := &spawnWatch{}
	sw.c = w.Join("watcher", client.Options{Name: "watcher", Bot: true, NoInterpolate: true})
	w.Trace(func(e sim.Event) {
		if e.Client != sw.c || e.Kind != sim.StateArrived {
			return
		}
		sw.states++
		for _, o := range sw.c.ViewLocked().Others {
			if o.Pos == forbidden && o.Name != "human" && o.ID != sw.human {
				sw.bad = append(sw.bad, fmt.Sprintf("player %d %q on %v at %v", o.ID, o.Name, o.Pos, e.T))
			}
		}
	})
	return sw
}

// finish closes the watcher and reports what it saw.
func (sw *spawnWatch) finish(t *testing.T) {
	t.Helper()
	sw.c.Close()
	if sw.states < 10 {
		t.Errorf("the watcher saw only %d updates", sw.states)
	}
	if len(sw.bad) > 0 {
		t.Errorf("bots stood on the human spawn: %v", sw.bad)
	}
}

// humanJoins has a human join w and checks that it spawns on spawn.
func (sw *spawnWatch) humanJoins(t *testing.T, w *sim.World, spawn grid.Pos) {
	t.Helper()
	h := w.Join("human", client.Options{Name: "human"})
	defer h.Close()
	v := h.View()
	if v.Err != nil {
		t.Errorf("a human could not join during the bots' run: %v", v.Err)
		return
	}
	sw.human = v.Me
	if v.Server != spawn {
		t.Errorf("a human joining during the bots' run spawned at %v, want the spawn %v", v.Server, spawn)
	}
}

// runWithHuman runs the bots in a world of cfg and, halfway through, has
// a human join; a watcher checks that no bot ever stands on spawn.
func runWithHuman(t *testing.T, cfg world.Config, opts Options, spawn grid.Pos) (Summary, *sim.World) {
	t.Helper()
	w := sim.New(cfg)
	sw := watchSpawn(w, spawn)
	joined := false
	s := simRun(t, w, opts, func(since time.Duration, _ []*sim.Client) {
		if !joined && since >= opts.Duration/2 {
			joined = true
			sw.humanJoins(t, w, spawn)
		}
	})
	if !joined {
		t.Error("the run ended before half its duration")
	}
	w.Trace(nil)
	sw.finish(t)
	return s, w
}
