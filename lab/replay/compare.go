package replay

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"gridlag/internal/cli"
	"gridlag/lab/scenario"
)

// Difference is one moment where a changed run differs from the
// recording's: where a player sees itself (Original and Now), or, for
// the other kinds, what the server decided (What says it).
type Difference struct {
	At     time.Duration
	Kind   DiffKind
	Player string
	// Original and Now are where the player sees itself in each run (a
	// DiffPosition).
	Original [2]int
	Now      [2]int
	// What says what differs, in a sentence, for the other kinds: "the
	// zap at 250 ms misses (was: hit, rewound 317 ms): rival had left the
	// line".
	What string
	// Why is what the what-if changed.
	Why string
}

// DiffKind is what a Difference is about.
type DiffKind string

// The kinds of differences: where a player sees itself, how the server
// judged a zap, whether a player was tagged (and frozen), a player's
// points.
const (
	DiffPosition DiffKind = "position"
	DiffZap      DiffKind = "zap verdict"
	DiffTag      DiffKind = "tag and freeze"
	DiffScore    DiffKind = "score"
)

// String is the line a user reads: "t=250 ms: original (12,10), now
// (11,10): reconciliation off", "t=250 ms: the zap at 250 ms misses
// (was: hit, rewound 317 ms): rival had left the line; lag compensation
// off".
func (d Difference) String() string {
	head := fmt.Sprintf("t=%d ms: ", d.At.Milliseconds())
	var s string
	switch {
	case d.Kind != DiffPosition && d.Kind != "":
		s = head + d.What
		if d.Why != "" {
			s += "; " + d.Why
		}
		return s
	case d.Player != "" && d.Player != "you":
		s = head + fmt.Sprintf("%s: original (%d,%d), now (%d,%d)", d.Player, d.Original[0], d.Original[1], d.Now[0], d.Now[1])
	default:
		s = head + fmt.Sprintf("original (%d,%d), now (%d,%d)", d.Original[0], d.Original[1], d.Now[0], d.Now[1])
	}
	if d.Why != "" {
		s += ": " + d.Why
	}
	return s
}

// Compare finds where the changed run differs from the original, why
// being what changed, in time order: each zap the server judged
// otherwise (hit or miss, whom, how far back), each tag and freeze that
// one run has and the other not, each player whose points differ at the
// end, and each moment a player sees itself elsewhere. It marks the
// changed run's lines of those moments (Differs, with Original or
// OriginalZap).
func Compare(orig, changed *scenario.Result, why string) []Difference {
	diffs := comparePositions(orig.Lines, changed.Lines, why)
	diffs = append(diffs, compareZaps(orig.Lines, changed.Lines, why)...)
	diffs = append(diffs, compareTags(orig.Lines, changed.Lines, why)...)
	diffs = append(diffs, compareScores(orig, changed, why)...)
	slices.SortStableFunc(diffs, func(a, b Difference) int { return cmp.Compare(a.At, b.At) })
	return diffs
}

// Count says how many differences there are and of which kinds: "3
// differences: 1 zap verdict, 1 tag and freeze, 1 score".
func Count(diffs []Difference) string {
	var kinds []string
	n := map[DiffKind]int{}
	for _, d := range diffs {
		k := cmp.Or(d.Kind, DiffPosition)
		if n[k] == 0 {
			kinds = append(kinds, string(k))
		}
		n[k]++
	}
	s := plural(len(diffs), "difference")
	if len(kinds) < 2 && (len(kinds) == 0 || kinds[0] == string(DiffPosition)) {
		return s
	}
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = fmt.Sprintf("%d %s", n[DiffKind(k)], k)
		if k == string(DiffPosition) {
			parts[i] = plural(n[DiffPosition], "position")
		}
	}
	return s + ": " + strings.Join(parts, ", ")
}

// plural writes n and the noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// comparePositions marks the lines of changed where a player sees itself
// elsewhere than in orig at the same moment: on the player's last line
// of each moment (t_ms), Original says where orig had it then (its own
// last line at or before that time) and Differs is set.
func comparePositions(orig, changed []scenario.Line, why string) []Difference {
	var diffs []Difference
	for i := range changed {
		l := &changed[i]
		if l.Link != nil || l.Input != nil || l.Loss != nil || i+1 < len(changed) && lastOf(changed, i) != i {
			continue
		}
		o, ok := at(orig, l.Player, l.TMS)
		if !ok || o.Client == l.Client {
			continue
		}
		l.Original, l.Differs = &scenario.Moment{Client: o.Client, Server: o.Server}, true
		diffs = append(diffs, Difference{At: time.Duration(l.T), Kind: DiffPosition, Player: l.Player, Original: o.Client, Now: l.Client, Why: why})
	}
	return diffs
}

// judged is a zap the server judged, and when.
type judged struct {
	at   time.Duration
	zap  *scenario.ZapLine
	line int // its line's index
}

// zapsOf returns the zaps the server judged in lines, by shooter and
// number.
func zapsOf(lines []scenario.Line) map[[2]string]judged {
	out := map[[2]string]judged{}
	for i, l := range lines {
		if l.Zap != nil {
			out[[2]string{l.Zap.Shooter, fmt.Sprint(l.Zap.Seq)}] = judged{time.Duration(l.T), l.Zap, i}
		}
	}
	return out
}

// compareZaps finds each zap (by its shooter and number) the server
// judged otherwise in changed than in orig: a hit that misses, a miss
// that hits, another player hit, another rewind, or a zap judged in one
// run only.
func compareZaps(orig, changed []scenario.Line, why string) []Difference {
	was, now := zapsOf(orig), zapsOf(changed)
	keys := make([][2]string, 0, len(was)+len(now))
	for k := range was {
		keys = append(keys, k)
	}
	for k := range now {
		if _, ok := was[k]; !ok {
			keys = append(keys, k)
		}
	}
	var diffs []Difference
	for _, k := range keys {
		o, inOrig := was[k]
		n, inNow := now[k]
		switch {
		case inOrig && inNow && sameVerdict(o.zap, n.zap):
			continue
		case inNow:
			l := &changed[n.line]
			l.Differs = true
			if inOrig {
				oz := *o.zap
				l.OriginalZap = &oz
			}
			was := "not judged in the recording"
			if inOrig {
				was = verdictWas(o, n)
			}
			what := fmt.Sprintf("%s at %s %s (was: %s)", zapName(n.zap), msText(n.at), verdictNow(n.zap), was)
			if !n.zap.Hit {
				what += ": " + n.zap.Why
			}
			diffs = append(diffs, Difference{At: n.at, Kind: DiffZap, Player: n.zap.Shooter, What: what, Why: why})
		default:
			what := fmt.Sprintf("%s #%s is not judged in this run (was: %s at %s)", zapName(o.zap), k[1], verdictWords(o.zap, true), msText(o.at))
			diffs = append(diffs, Difference{At: o.at, Kind: DiffZap, Player: o.zap.Shooter, What: what, Why: why})
		}
	}
	return diffs
}

// sameVerdict reports whether two judgements of a zap agree: hit or
// miss, whom, why, how far back.
func sameVerdict(a, b *scenario.ZapLine) bool {
	return a.Hit == b.Hit && a.Why == b.Why && a.RewindMS == b.RewindMS &&
		(a.Target == nil) == (b.Target == nil) && (a.Target == nil || *a.Target == *b.Target)
}

// zapName names a zap as a sentence begins: "the zap" (the player's
// own), "rival's zap".
func zapName(z *scenario.ZapLine) string {
	if z.Shooter == "you" {
		return "the zap"
	}
	return z.Shooter + "'s zap"
}

// verdictNow says how the changed run judged a zap, as a verb: "misses",
// "hits rival, rewound 150 ms".
func verdictNow(z *scenario.ZapLine) string {
	if !z.Hit {
		return "misses"
	}
	return "hits " + *z.Target + ", " + rewound(z.RewindMS)
}

// verdictWas says how the recording judged a zap the changed run judged
// otherwise: "hit, rewound 317 ms", "miss, rival had left the line", and
// when, if that was another time.
func verdictWas(o, n judged) string {
	s := verdictWords(o.zap, n.zap.Hit && o.zap.Hit && *o.zap.Target != *n.zap.Target)
	if o.at.Milliseconds() != n.at.Milliseconds() {
		s += " at " + msText(o.at)
	}
	return s
}

// verdictWords says a judgement as a noun: "hit, rewound 317 ms" ("hit
// rival, ..." with whom), "miss, rival had left the line".
func verdictWords(z *scenario.ZapLine, whom bool) string {
	if !z.Hit {
		return "miss, " + z.Why
	}
	s := "hit"
	if whom {
		s += " " + *z.Target
	}
	return s + ", " + rewound(z.RewindMS)
}

// rewound says how far back the server judged a zap.
func rewound(ms int64) string {
	if ms == 0 {
		return "not rewound"
	}
	return fmt.Sprintf("rewound %d ms", ms)
}

// tagsOf returns each player's tags in lines, in order.
func tagsOf(lines []scenario.Line) map[string][]scenario.Line {
	out := map[string][]scenario.Line{}
	for _, l := range lines {
		if l.Tag != nil {
			out[l.Player] = append(out[l.Player], l)
		}
	}
	return out
}

// compareTags finds each tag (a player's n-th) that one run has and the
// other not, or by another shooter: a player frozen in one run and free
// in the other.
func compareTags(orig, changed []scenario.Line, why string) []Difference {
	was, now := tagsOf(orig), tagsOf(changed)
	players := slices.Sorted(func(yield func(string) bool) {
		for p := range was {
			if !yield(p) {
				return
			}
		}
		for p := range now {
			if _, ok := was[p]; !ok && !yield(p) {
				return
			}
		}
	})
	var diffs []Difference
	for _, p := range players {
		o, n := was[p], now[p]
		for i := range max(len(o), len(n)) {
			var what string
			var at time.Duration
			switch {
			case i >= len(n):
				at = time.Duration(o[i].T)
				what = fmt.Sprintf("%s not tagged nor frozen (was: tagged by %s at %s, frozen)", is(p), o[i].Tag.By, msText(at))
			case i >= len(o):
				at = time.Duration(n[i].T)
				what = fmt.Sprintf("%s tagged by %s at %s, frozen (was: not tagged)", is(p), n[i].Tag.By, msText(at))
			case o[i].Tag.By != n[i].Tag.By:
				at = time.Duration(n[i].T)
				what = fmt.Sprintf("%s tagged by %s at %s, frozen (was: by %s at %s)", is(p), n[i].Tag.By, msText(at), o[i].Tag.By, msText(time.Duration(o[i].T)))
			default:
				continue
			}
			diffs = append(diffs, Difference{At: at, Kind: DiffTag, Player: p, What: what, Why: why})
		}
	}
	return diffs
}

// compareScores finds each player whose points at the end differ, at
// the first point one run scored and the other not.
func compareScores(orig, changed *scenario.Result, why string) []Difference {
	var diffs []Difference
	for _, p := range orig.Players {
		o, ok1 := orig.Points[p]
		n, ok2 := changed.Points[p]
		if !ok1 || !ok2 || o == n {
			continue
		}
		so, sn := scoredAt(orig.Lines, p), scoredAt(changed.Lines, p)
		at := changed.End
		for i := range max(len(so), len(sn)) {
			if i < len(so) && i < len(sn) && so[i] == sn[i] {
				continue
			}
			switch {
			case i >= len(so):
				at = sn[i]
			case i >= len(sn):
				at = so[i]
			default:
				at = min(so[i], sn[i])
			}
			break
		}
		what := fmt.Sprintf("%s score ends at %s (was: %d)", whose(p), plural(n, "point"), o)
		diffs = append(diffs, Difference{At: at, Kind: DiffScore, Player: p, What: what, Why: why})
	}
	return diffs
}

// is is a player as the subject of "is": "rival is", "you are".
func is(player string) string {
	if player == "you" {
		return "you are"
	}
	return player + " is"
}

// whose is a player's possessive: "rival's", "your".
func whose(player string) string {
	if player == "you" {
		return "your"
	}
	return player + "'s"
}

// scoredAt returns when player scored in lines: each zap of its that
// hit.
func scoredAt(lines []scenario.Line, player string) []time.Duration {
	var out []time.Duration
	for _, l := range lines {
		if l.Zap != nil && l.Zap.Hit && l.Zap.Shooter == player {
			out = append(out, time.Duration(l.T))
		}
	}
	return out
}

// msText writes a time since the start as a sentence does: "250 ms".
func msText(d time.Duration) string { return cli.Thousands(d.Milliseconds()) + " ms" }
