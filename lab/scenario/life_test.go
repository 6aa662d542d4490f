package scenario

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"gridlag/client"
	"gridlag/grid"
)

// inputsOf returns the input lines of a timeline, in order.
func inputsOf(lines []Line) []InputLine {
	var out []InputLine
	for _, l := range lines {
		if l.Input != nil {
			out = append(out, *l.Input)
		}
	}
	return out
}

// TestArticleInputLines: the article's case (250 ms round trip, the
// server answering each input at once) prints input #1 arrived at 125,
// applied at 125, acknowledged at 250, with #2 replayed on top of it, and
// #2 arrived at 225, acknowledged at 350: one JSON line each, where its
// life ends, in the words.
func TestArticleInputLines(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJSON(&buf, run(t, Default())); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if strings.HasPrefix(line, `{"input":`) {
			got = append(got, line)
		}
	}
	want := []string{
		`{"input":{"player":"you","n":1,"pressed_ms":0,"sent_ms":0,"arrived_ms":125,"applied_ms":125,"ack_sent_ms":125,"acked_ms":250,"replayed":1,"corrected":false}}`,
		`{"input":{"player":"you","n":2,"pressed_ms":100,"sent_ms":100,"arrived_ms":225,"applied_ms":225,"ack_sent_ms":225,"acked_ms":350,"replayed":0,"corrected":false}}`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("input lines:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Each is printed where its life ends: after the State that
	// acknowledged it.
	lines := run(t, Default())
	for i, l := range lines {
		if l.Input != nil && (i == 0 || lines[i-1].TMS != l.TMS || lines[i-1].Ack < l.Input.N) {
			t.Errorf("input #%d printed at %d ms after %+v", l.Input.N, l.TMS, lines[i-1])
		}
	}
}

// TestInputLives: an input's stages add up whatever the link and the
// server's rate, and what held it shows in the stage where it happened.
func TestInputLives(t *testing.T) {
	one := func(presses ...Press) Config {
		cfg := Default()
		cfg.Player.Presses = presses
		return cfg
	}
	right := func(at time.Duration) Press { return Press{At: at, Dir: grid.Right} }
	cases := []struct {
		name  string
		cfg   func() Config
		check func(t *testing.T, in []InputLine)
	}{
		{"rate 0: answered at once", func() Config { return Default() }, func(t *testing.T, in []InputLine) {
			for _, l := range in {
				if l.ArrivedMS-l.SentMS != 125 || l.AckSentMS != l.ArrivedMS || l.AckedMS-l.AckSentMS != 125 || l.Tick != 0 {
					t.Errorf("%+v: want 125 up, answered at once, 125 down, no tick", l)
				}
			}
		}},
		{"rate 3: waits up to a third of a second for the tick", func() Config {
			cfg := one(right(0), right(400*ms), right(800*ms))
			cfg.Rate = 3
			return cfg
		}, func(t *testing.T, in []InputLine) {
			for _, l := range in {
				if w := l.AckSentMS - l.ArrivedMS; l.ArrivedMS-l.SentMS != 125 || w < 0 || w > 334 || l.AckedMS-l.AckSentMS != 125 || l.Tick == 0 {
					t.Errorf("%+v: want 125 up, 0 to 333 for the tick, 125 down, a tick", l)
				}
			}
			if in[0].AckSentMS-in[0].ArrivedMS == in[1].AckSentMS-in[1].ArrivedMS {
				t.Errorf("inputs 400 ms apart waited as long for a 333 ms tick: %+v", in)
			}
		}},
		{"rate 20: waits up to 50 ms", func() Config {
			cfg := one(right(0), right(130*ms))
			cfg.Rate = 20
			return cfg
		}, func(t *testing.T, in []InputLine) {
			for _, l := range in {
				if w := l.AckSentMS - l.ArrivedMS; l.ArrivedMS-l.SentMS != 125 || w < 0 || w > 50 || l.AckedMS-l.AckSentMS != 125 || l.Tick == 0 {
					t.Errorf("%+v: want 125 up, 0 to 50 for the tick, 125 down", l)
				}
			}
		}},
		{"jitter: 0 to 40 ms more each way", func() Config {
			cfg := one(right(0), right(200*ms), right(400*ms), right(600*ms))
			cfg.Player.Jitter = 40 * ms
			return cfg
		}, func(t *testing.T, in []InputLine) {
			varied := false
			for _, l := range in {
				up, down := l.ArrivedMS-l.SentMS, l.AckedMS-l.AckSentMS
				if up < 125 || up > 165 || down < 125 || down > 165 || l.AckSentMS != l.ArrivedMS {
					t.Errorf("%+v: want 125 to 165 each way", l)
				}
				varied = varied || up != in[0].ArrivedMS-in[0].SentMS
			}
			if !varied {
				t.Errorf("four inputs, each 0 to 40 ms late, all alike: %+v", in)
			}
		}},
		{"loss: the retransmission in the stage it delayed", func() Config {
			var presses []Press
			for i := range 12 {
				presses = append(presses, right(time.Duration(i)*300*ms))
			}
			cfg := one(presses...)
			cfg.Player.Start = grid.Pos{X: 2, Y: 1}
			cfg.Player.Loss = 0.3
			cfg.Until = 40 * time.Second // room for a message lost five times
			return cfg
		}, func(t *testing.T, in []InputLine) {
			up, down := 0, 0
			for _, l := range in {
				if l.SentMS-l.PressedMS != l.LimitMS+l.HeldUpMS || l.ArrivedMS-l.SentMS != 125 || l.AckedMS-l.AckSentMS != 125+l.HeldDownMS {
					t.Errorf("%+v: want what the link held in sent_ms going up, in acked_ms coming down, 125 each way besides", l)
				}
				if l.HeldUpMS >= 200 {
					up++
				}
				if l.HeldDownMS >= 200 {
					down++
				}
			}
			if up == 0 || down == 0 {
				t.Errorf("%d inputs held at least an RTO going up, %d coming down; the test needs both: %+v", up, down, in)
			}
		}},
		{"a press quicker than the speed limit waits for it", func() Config {
			return one(right(0), right(30*ms))
		}, func(t *testing.T, in []InputLine) {
			if l := in[1]; l.PressedMS != 30 || l.LimitMS != 70 || l.SentMS != 100 || l.ArrivedMS != 225 {
				t.Errorf("the quick press %+v: want pressed 30, held 70 by the speed limit, sent 100, arrived 225", l)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg()
			in := inputsOf(run(t, cfg))
			if len(in) != len(cfg.Player.Presses) {
				t.Fatalf("%d input lines for %d presses: %+v", len(in), len(cfg.Player.Presses), in)
			}
			for i, l := range in {
				if l.N != uint32(i+1) || l.PressedMS > l.SentMS || l.SentMS > l.ArrivedMS || l.ArrivedMS > l.AppliedMS ||
					l.AppliedMS > l.AckSentMS || l.AckSentMS > l.AckedMS || l.PressedMS != cfg.Player.Presses[i].At.Milliseconds() {
					t.Errorf("input %d: %+v: the stages are out of order", i+1, l)
				}
			}
			tc.check(t, in)
		})
	}
}

// TestZapInputLine: a zap's life has the server's rewind, whole
// milliseconds rounded to the nearest as the wire carries it: 317.
func TestZapInputLine(t *testing.T) {
	in := inputsOf(run(t, partFour(true, 500*ms)))
	var zap *InputLine
	for i := range in {
		if in[i].Player == "you" {
			zap = &in[i]
		}
	}
	if zap == nil || zap.RewindMS == nil || *zap.RewindMS != 317 || zap.ArrivedMS != 250 {
		t.Fatalf("your zap's life %+v, want it rewound 317 ms, arrived at 250", zap)
	}
	b, _ := json.Marshal(Line{Input: zap})
	if !strings.Contains(string(b), `"rewind_ms":317`) {
		t.Errorf("zap line %s", b)
	}
}

// TestBudgetAddsUp: the budget's parts (the press's speed-limit wait, its
// way up, its wait for the tick, the State's way down to the rival and
// the rival's interpolation delay) add up to the delay the rival sees, to
// within one update interval (interpolation draws a one-cell move from
// the midpoint between two States), at 200 ms and 3 Hz and at 100 ms and
// 20 Hz.
func TestBudgetAddsUp(t *testing.T) {
	for _, c := range []struct {
		latency time.Duration
		rate    int
	}{{200 * ms, 3}, {100 * ms, 20}} {
		cfg := Default()
		cfg.Rate = c.rate
		cfg.Player.Latency = c.latency
		cfg.Player.Presses = nil
		for i := range 4 {
			cfg.Player.Presses = append(cfg.Player.Presses, Press{At: time.Duration(i) * 700 * ms, Dir: grid.Down})
		}
		cfg.Second = &Player{Name: "rival", Start: grid.Pos{X: 14, Y: 10}, Latency: c.latency,
			Presses: []Press{{At: 5 * time.Second, Dir: grid.Up}}}
		res, err := RunFull(cfg)
		if err != nil {
			t.Fatal(err)
		}
		b := res.Budget
		if b == nil || b.Inputs != 4 || len(b.Seen) != 4 {
			t.Fatalf("%v %d Hz: budget %+v, want 4 inputs, each seen", c.latency, c.rate, b)
		}
		var sum time.Duration
		for _, p := range b.Parts {
			sum += p.D
		}
		tick := time.Second / time.Duration(c.rate)
		seen := b.SeenMean()
		if sum != b.Total || seen > b.Total || b.Total-seen > tick {
			t.Errorf("%v %d Hz: the parts add up to %v, the rival saw the moves %v after the press (%v); want within %v",
				c.latency, c.rate, b.Total, seen, b.Seen, tick)
		}
		if up, down := b.Parts[client.PartUp].D, b.Parts[client.PartDown].D; up != c.latency/2 || (down-c.latency/2).Abs() > time.Microsecond {
			t.Errorf("%v: one-way up %v, back %v", c.latency, up, down)
		}
		if w := b.Parts[client.PartTick].D; w < 0 || w > tick {
			t.Errorf("%d Hz: waited %v for the tick", c.rate, w)
		}
		if b.Hidden != b.Own || b.Own < c.latency {
			t.Errorf("own avatar: %v, prediction hides %v", b.Own, b.Hidden)
		}
		var buf bytes.Buffer
		WriteBudget(&buf, b)
		for _, want := range []string{"speed-limit wait", "one-way up", "waiting for the tick", "tick to State sent", "one-way back", "interpolation delay", "-rate", "-latency2", "measured: rival drew the move", "you press, rival sees it (mean of 4 moves)"} {
			if !strings.Contains(buf.String(), want) {
				t.Errorf("the budget's text lacks %q:\n%s", want, buf.String())
			}
		}
	}
}
