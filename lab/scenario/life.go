package scenario

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"gridlag/client"
	"gridlag/internal/link"
	"gridlag/lab/sim"
	"gridlag/protocol"
)

// InputLine is an input's whole life as the JSON output prints it, on the
// line `{"input": {...}}` where it ends (the State acknowledging it was
// reconciled): every time in milliseconds since the start. The first ten
// fields are always there; a zap adds how far back the server judged it
// (rewind_ms); the others appear when they have something to say.
type InputLine struct {
	Player    string `json:"player"`
	N         uint32 `json:"n"`
	PressedMS int64  `json:"pressed_ms"`  // the key press
	SentMS    int64  `json:"sent_ms"`     // it left: after the speed limit's hold and what the link held it
	ArrivedMS int64  `json:"arrived_ms"`  // at the server
	AppliedMS int64  `json:"applied_ms"`  // the server applied it (or refused it: Refused)
	AckSentMS int64  `json:"ack_sent_ms"` // the State carrying its acknowledgement was made
	AckedMS   int64  `json:"acked_ms"`    // that State arrived: reconciled
	Replayed  int    `json:"replayed"`    // pending inputs replayed on top of the server's word
	Corrected bool   `json:"corrected"`   // the prediction was wrong
	RewindMS  *int64 `json:"rewind_ms,omitempty"`
	// Refused says why the server refused it ("refused by the speed
	// limit", "refused: frozen"); a move it applied but that moved nothing
	// says so too ("blocked by another player").
	Refused string `json:"refused,omitempty"`
	Cells   int    `json:"cells,omitempty"` // the correction, in cells
	// LimitMS is how long the client's speed limit held the press (part
	// of sent_ms); HeldUpMS how long the link held it back on the way up
	// (a lost segment retransmitted, head-of-line blocking: part of
	// sent_ms too); HeldDownMS how long it held the State back on the way
	// down (part of acked_ms).
	LimitMS    int64 `json:"limit_ms,omitempty"`
	HeldUpMS   int64 `json:"held_up_ms,omitempty"`
	HeldDownMS int64 `json:"held_down_ms,omitempty"`
	// Tick is the server's tick whose State acknowledged it (at an update
	// rate; none at -rate 0, where each input is answered at once).
	Tick uint32 `json:"tick,omitempty"`
}

// MarshalJSON writes a line of the timeline: an input's life as
// {"input": {...}}, any other moment with its fields.
func (l Line) MarshalJSON() ([]byte, error) {
	if l.Input != nil {
		return json.Marshal(struct {
			Input *InputLine `json:"input"`
		}{l.Input})
	}
	type plain Line // Line's fields without this method
	return json.Marshal(plain(l))
}

// inputLine is the JSON object of an input's life, times from start;
// ticks says the server ticks at an update rate.
func inputLine(player string, l *client.InputLife, start time.Duration, ticks bool) *InputLine {
	ms := func(t time.Duration) int64 { return (t - start).Round(time.Millisecond).Milliseconds() }
	span := func(d time.Duration) int64 { return d.Round(time.Millisecond).Milliseconds() }
	in := &InputLine{
		Player: player, N: l.Seq,
		PressedMS: ms(l.Pressed), SentMS: ms(l.Sent), AckedMS: ms(l.Acked),
		Replayed: l.Replayed, Corrected: l.Corrected, Cells: l.Cells,
		LimitMS: span(l.LimitWait()), HeldUpMS: span(l.HeldUp), HeldDownMS: span(l.HeldDown),
	}
	if l.Traced {
		in.ArrivedMS, in.AppliedMS, in.AckSentMS = ms(l.Arrived), ms(l.Applied), ms(l.AckSent)
		if o := l.Outcome; !o.Applied() || o == protocol.StageBlocked || o == protocol.StagePlayer {
			in.Refused = o.String()
		}
		if ticks {
			in.Tick = l.Tick
		}
	}
	if l.Zap {
		r := span(l.Rewind)
		in.RewindMS = &r
	}
	return in
}

// lifeSentence says an input's life in the timeline's words (with
// -inputs): "#1 RIGHT: pressed 0, sent 0, arrived 125, applied 125, ack
// sent 125, acked 250; replayed 1, predicted right".
func lifeSentence(player string, in *InputLine, l *client.InputLife) string {
	what := l.Dir.String()
	if l.Zap {
		what = "zap"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: #%d %s lived: pressed %d, sent %d", player, in.N, what, in.PressedMS, in.SentMS)
	var held []string
	if in.LimitMS > 0 {
		held = append(held, fmt.Sprintf("%d by the speed limit", in.LimitMS))
	}
	if in.HeldUpMS > 0 {
		held = append(held, fmt.Sprintf("%d by the link", in.HeldUpMS))
	}
	if len(held) > 0 {
		fmt.Fprintf(&b, " (held %s)", strings.Join(held, ", "))
	}
	if l.Traced {
		fmt.Fprintf(&b, ", arrived %d, applied %d", in.ArrivedMS, in.AppliedMS)
		if in.Tick > 0 {
			fmt.Fprintf(&b, " (tick %d)", in.Tick)
		}
		if in.Refused != "" {
			fmt.Fprintf(&b, " (%s)", in.Refused)
		}
		fmt.Fprintf(&b, ", ack sent %d", in.AckSentMS)
	}
	fmt.Fprintf(&b, ", acked %d", in.AckedMS)
	if in.HeldDownMS > 0 {
		fmt.Fprintf(&b, " (held %d by the link)", in.HeldDownMS)
	}
	if in.RewindMS != nil {
		fmt.Fprintf(&b, ", rewound %d ms", *in.RewindMS)
	}
	fmt.Fprintf(&b, "; replayed %d, ", in.Replayed)
	if in.Corrected {
		fmt.Fprintf(&b, "corrected by %d cell%s", in.Cells, plural(in.Cells))
	} else {
		b.WriteString("predicted right")
	}
	return b.String()
}

// verbS is the ending of a verb after name: "you press", "ada presses".
func verbS(name string) string {
	if name == "you" {
		return ""
	}
	return "es"
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// BudgetReport is the latency budget of a run: the mean parts of the
// first player's moves that the server staged, from its press to Viewer
// seeing it (the second player, or a player with the first one's link).
type BudgetReport struct {
	client.Budget
	Mover, Viewer string
	Inputs        int // the inputs it is the mean of
	// Seen is how long after each press of a move the second player drew
	// it (none without a second player): what the budget foretells, up to
	// the update interval (interpolation shows a one-cell move from its
	// midpoint).
	Seen []time.Duration
}

// SeenMean is the mean of Seen (0 if none).
func (r *BudgetReport) SeenMean() time.Duration {
	if len(r.Seen) == 0 {
		return 0
	}
	var sum time.Duration
	for _, d := range r.Seen {
		sum += d
	}
	return sum / time.Duration(len(r.Seen))
}

// budgetReport builds the run's budget from the mover's lives, the
// viewer's States' trips down (their mean) and its interpolation delay.
func budgetReport(cfg Config, lives []client.InputLife, mover, viewer *sim.Client, down time.Duration) *BudgetReport {
	v := viewer.View()
	interp := time.Duration(0)
	if v.Interpolate {
		interp = v.InterpDelay
	}
	who := "rival's "
	name := viewer.Name()
	if viewer == mover {
		who, name = "", "a player with your link"
	}
	b, ok := client.MeasuredBudget(lives, down, interp, cfg.Predict, who)
	if !ok {
		return nil
	}
	// Each part names the flag that sets it.
	p := &b.Parts
	p[client.PartLimit].Knob = fmt.Sprintf("-move-time %v, -presses", cfg.MoveTime)
	p[client.PartUp].Knob = linkKnob(cfg.Player.Trace, "-latency ÷ 2, -jitter, -loss", "-trace")
	p[client.PartTick].Knob = fmt.Sprintf("-rate %d", cfg.Rate)
	if cfg.Rate == 0 {
		p[client.PartTick].Knob = "-rate 0: answered at once"
	}
	p[client.PartDown].Knob = p[client.PartUp].Knob
	if viewer != mover && cfg.Second != nil {
		p[client.PartDown].Knob = linkKnob(cfg.Second.Trace, "-latency2 ÷ 2, -jitter, -loss", "-trace2")
	}
	p[client.PartInterp].Knob = who + "interpolation delay: an update interval and a frame, more with jitter"
	n := 0
	for _, l := range lives {
		if l.Traced && !l.Zap {
			n++
		}
	}
	return &BudgetReport{Budget: b, Mover: mover.Name(), Viewer: name, Inputs: n}
}

// linkKnob names what sets one way of a player's link: its flags, or the
// trace it follows (flag, its name).
func linkKnob(tr *link.Trace, flags, flag string) string {
	if tr != nil {
		return flag + " " + tr.Name + ": its delay, jitter, loss and stalls"
	}
	return flags
}

// WriteBudget writes the budget as a small table after the timeline.
func WriteBudget(w io.Writer, r *BudgetReport) error {
	if r == nil {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "latency budget: %s press%s, %s sees it (mean of %d move%s)\n", r.Mover, verbS(r.Mover), r.Viewer, r.Inputs, plural(r.Inputs))
	for _, p := range r.Parts {
		fmt.Fprintf(&b, "  %-22s %5d ms  %s\n", p.Name, p.D.Round(time.Millisecond).Milliseconds(), p.Knob)
	}
	fmt.Fprintf(&b, "  %-22s %5d ms\n", "total", r.Total.Round(time.Millisecond).Milliseconds())
	if len(r.Seen) > 0 {
		fmt.Fprintf(&b, "  measured: %s drew the move %d ms after the press (mean of %d)\n",
			r.Viewer, r.SeenMean().Round(time.Millisecond).Milliseconds(), len(r.Seen))
	}
	if r.Predict {
		fmt.Fprintf(&b, "  own avatar: the server's word takes %d ms; prediction hides %d ms of it\n",
			r.Own.Round(time.Millisecond).Milliseconds(), r.Hidden.Round(time.Millisecond).Milliseconds())
	} else {
		fmt.Fprintf(&b, "  own avatar: waits %d ms for the server's word (prediction off)\n", r.Own.Round(time.Millisecond).Milliseconds())
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// BudgetJSON is the budget as the JSON output prints it, on its last
// line: {"budget": {...}}.
type BudgetJSON struct {
	Mover    string       `json:"mover"`
	Viewer   string       `json:"viewer"`
	Inputs   int          `json:"inputs"`
	Parts    []BudgetPart `json:"parts"`
	TotalMS  int64        `json:"total_ms"`
	OwnMS    int64        `json:"own_ms"`
	HiddenMS int64        `json:"hidden_ms"`
	// SeenMS is how long after the press the second player drew each
	// move (measured; absent without a second player).
	SeenMS []int64 `json:"seen_ms,omitempty"`
}

// BudgetPart is one part of the budget in the JSON output.
type BudgetPart struct {
	Part string `json:"part"`
	MS   int64  `json:"ms"`
	Knob string `json:"knob"`
}

// WriteBudgetJSON writes the budget as one JSON line.
func WriteBudgetJSON(w io.Writer, r *BudgetReport) error {
	if r == nil {
		return nil
	}
	ms := func(d time.Duration) int64 { return d.Round(time.Millisecond).Milliseconds() }
	out := BudgetJSON{Mover: r.Mover, Viewer: r.Viewer, Inputs: r.Inputs, TotalMS: ms(r.Total), OwnMS: ms(r.Own), HiddenMS: ms(r.Hidden)}
	for _, p := range r.Parts {
		out.Parts = append(out.Parts, BudgetPart{Part: p.Name, MS: ms(p.D), Knob: p.Knob})
	}
	for _, d := range r.Seen {
		out.SeenMS = append(out.SeenMS, ms(d))
	}
	return json.NewEncoder(w).Encode(struct {
		Budget BudgetJSON `json:"budget"`
	}{out})
}
