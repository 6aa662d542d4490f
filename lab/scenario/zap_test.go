package scenario

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"gridlag/grid"
)

// partFour is the articles' Part IV case: the rival steps down out of
// your line at 0; you, 200 ms round trip, zap at 150 ms where you still
// see it.
func partFour(lagComp bool, unlag time.Duration) Config {
	cfg := Default()
	cfg.Player.Latency = 200 * ms
	cfg.Player.Presses = []Press{{At: 150 * ms, Zap: true}}
	cfg.Second = &Player{Start: grid.Pos{X: 12, Y: 10}, Latency: 50 * ms, Presses: []Press{{At: 0, Dir: grid.Down}}}
	cfg.LagComp, cfg.Unlag = lagComp, unlag
	return cfg
}

// judged returns the line where the server judged the zap.
func judged(t *testing.T, lines []Line) Line {
	t.Helper()
	for _, l := range lines {
		if l.Zap != nil {
			return l
		}
	}
	t.Fatalf("no line judges the zap: %+v", lines)
	return Line{}
}

// TestPartFourTimeline: with lag compensation the rival is tagged where
// you saw it, and told so; without it, or with a rewind clamped short of
// what you saw, you miss and are told the rival had left the line.
func TestPartFourTimeline(t *testing.T) {
	tests := []struct {
		name     string
		cfg      Config
		hit      bool
		rewind   int64
		yours    string // the result line you read
		sentence string
	}{
		{"lag compensation", partFour(true, 500*ms), true, 317, "hit rival (rewound 317ms)", "hits rival at (12,10), rewound 317ms"},
		{"no lag compensation", partFour(false, 500*ms), false, 0, "miss: rival had left the line", "misses, rival had left the line (seen at (12,10)), not rewound"},
		{"clamped by unlag", partFour(true, 200*ms), false, 200, "miss: rival had left the line", "rewound 200ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines := run(t, tt.cfg)
			l := judged(t, lines)
			z := l.Zap
			if l.TMS != 250 || l.Player != "you" || z.Shooter != "you" || z.Hit != tt.hit || z.RewindMS != tt.rewind {
				t.Errorf("judged at %d ms: %+v, want at 250 ms: hit %v, rewound %d ms", l.TMS, z, tt.hit, tt.rewind)
			}
			if tt.hit != (z.Target != nil && *z.Target == "rival") {
				t.Errorf("target %v, want rival for a hit, null for a miss", z.Target)
			}
			if !strings.Contains(l.Event, tt.sentence) {
				t.Errorf("event %q, want it to say %q", l.Event, tt.sentence)
			}
			var result, tagged bool
			for _, o := range lines {
				result = result || o.Player == "you" && strings.HasSuffix(o.Event, "zap result arrives: "+tt.yours)
				tagged = tagged || o.Player == "rival" && strings.Contains(o.Event, "tagged by you, who saw you at (12,10)")
			}
			if !result || tagged != tt.hit {
				t.Errorf("you read the result: %v; the rival read it was tagged: %v (want %v)", result, tagged, tt.hit)
			}
		})
	}
}

// TestZapJSON: the judging line's zap object has the documented keys,
// target null for a miss; no other line has one.
func TestZapJSON(t *testing.T) {
	for _, lagComp := range []bool{true, false} {
		var buf bytes.Buffer
		if err := WriteJSON(&buf, run(t, partFour(lagComp, 500*ms))); err != nil {
			t.Fatal(err)
		}
		zaps := 0
		for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
			var obj map[string]any
			if err := json.Unmarshal([]byte(line), &obj); err != nil {
				t.Fatal(err)
			}
			z, ok := obj["zap"].(map[string]any)
			if !ok {
				continue
			}
			zaps++
			want := map[string]any{"shooter": "you", "hit": true, "target": "rival", "rewind_ms": 317.0}
			if !lagComp {
				want = map[string]any{"shooter": "you", "hit": false, "target": nil, "rewind_ms": 0.0}
			}
			if len(z) != len(want) {
				t.Errorf("zap object %v, want %v", z, want)
			}
			for k, v := range want {
				if got, ok := z[k]; !ok || got != v {
					t.Errorf("zap[%q] = %v, want %v", k, got, v)
				}
			}
		}
		if zaps != 1 {
			t.Errorf("lag compensation %v: %d lines with a zap, want 1", lagComp, zaps)
		}
	}
}

func TestParseZapPress(t *testing.T) {
	ps, err := ParsePresses("zap@300ms,right@0ms,ZAP@1s")
	if err != nil {
		t.Fatal(err)
	}
	want := []Press{{At: 0, Dir: grid.Right}, {At: 300 * ms, Zap: true}, {At: time.Second, Zap: true}}
	if len(ps) != len(want) || ps[0] != want[0] || ps[1] != want[1] || ps[2] != want[2] {
		t.Errorf("ParsePresses = %+v, want %+v", ps, want)
	}
	if _, err := ParsePresses("zip@1s"); err == nil || !strings.Contains(err.Error(), "or zap") {
		t.Errorf("a bad name: %v, want an error naming zap too", err)
	}
}

// TestNoTagAfterRespawn is the repro of issue 18: you tag the rival at 0,
// it is frozen at (12,10) for 2 s and respawns elsewhere; your zap at
// 2.1 s, drawing the world 317 ms back, sees it frozen where you tagged
// it: a miss, not a second tag. With a spawn protection of 2 s the zap at
// its arrival misses, and one after the protection tags it.
func TestNoTagAfterRespawn(t *testing.T) {
	for _, tt := range []struct {
		protect time.Duration
		second  time.Duration // your second zap
		hits    []bool
		say     []string
	}{
		{0, 2100 * ms, []bool{true, false, false}, []string{"hits rival at (12,10), rewound 317ms", "misses, rival was already tagged (seen at (12,10)), rewound 317ms"}},
		{2 * time.Second, 2500 * ms, []bool{false, true, false}, []string{"misses, rival was protected (seen at (12,10))", "hits rival at (12,10)"}},
	} {
		cfg := Default()
		cfg.Player.Latency = 200 * ms
		cfg.Player.Presses = []Press{{At: 0, Zap: true}, {At: tt.second, Zap: true}}
		cfg.Second = &Player{Start: grid.Pos{X: 12, Y: 10}, Latency: 50 * ms, Presses: []Press{{At: 5000 * ms, Zap: true}}}
		cfg.Protect = tt.protect
		var hits []bool
		var events []string
		for _, l := range run(t, cfg) {
			if l.Zap != nil {
				hits, events = append(hits, l.Zap.Hit), append(events, l.Event)
			}
		}
		if !slices.Equal(hits, tt.hits) {
			t.Errorf("protection %v: zaps hit %v, want %v: %q", tt.protect, hits, tt.hits, events)
			continue
		}
		for i, want := range tt.say {
			if !strings.Contains(events[i], want) {
				t.Errorf("protection %v: zap %d %q, want it to say %q", tt.protect, i+1, events[i], want)
			}
		}
	}
}
