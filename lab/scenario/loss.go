package scenario

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"gridlag/internal/cli"
	"gridlag/lab/sim"
)

// LossLine is a message lost on a player's link, on the line that names
// it, as the JSON output prints it: the way, the messages (a few sent
// together and lost alike are one line), when each copy was lost, and
// when the copy that got through left and was delivered (omitted when
// that came after the run). Over TCP a lost segment is sent again after
// the retransmission timeout, doubled after each loss; a datagram lost
// is lost for good (Dropped).
type LossLine struct {
	Way       string   `json:"way"` // "up" (to the server) or "down"
	Messages  []string `json:"messages"`
	LostMS    []int64  `json:"lost_ms"`
	ResentMS  *int64   `json:"resent_ms,omitempty"`
	DeliverMS *int64   `json:"delivered_ms,omitempty"`
	Dropped   bool     `json:"dropped,omitempty"`
}

// lost is one message (or a few sent together and lost alike) lost on a
// followed player's link, times since the timeline's start.
type lost struct {
	player   string
	up       bool
	labels   []string
	sent     time.Duration // the first copy
	resent   time.Duration // the copy that gets through (TCP)
	at       time.Duration // delivered (or, dropped, when it would have been)
	times    int           // copies lost (TCP)
	held     bool          // delivered after its own arrival: behind an earlier segment
	dropped  bool          // a datagram lost for good
	inFlight bool          // still on its way at the run's end
}

// tries returns when each copy of a TCP segment lost l.times times left:
// the first at sent, each next one a retransmission timeout after the
// one before, the timeout doubled after each loss (link.Line.SetLoss),
// so that the last, which gets through, leaves at resent.
func (l lost) tries() []time.Duration {
	if l.times == 0 {
		return []time.Duration{l.sent}
	}
	rto := (l.resent - l.sent) / time.Duration(1<<l.times-1)
	out := make([]time.Duration, l.times+1)
	for i := range out {
		out[i] = l.sent + rto*time.Duration(1<<i-1)
	}
	out[l.times] = l.resent // exact, whatever the division rounded
	return out
}

// same reports whether m was sent with l and met the same fate: one line
// names them both.
func (l lost) same(m lost) bool {
	return l.player == m.player && l.up == m.up && l.sent == m.sent && l.resent == m.resent && l.at == m.at &&
		l.times == m.times && l.held == m.held && l.dropped == m.dropped && l.inFlight == m.inFlight
}

// losses returns the messages lost on the followed players' links, over
// the run to end: those delivered (the wires), then those still on their
// way at the end, each once, in the order first lost.
func (tl *Timeline) losses(end time.Duration) []lost {
	var out []lost
	add := func(m lost) {
		if n := len(out); n > 0 && out[n-1].same(m) {
			out[n-1].labels = append(out[n-1].labels, m.labels...)
			return
		}
		out = append(out, m)
	}
	for _, w := range tl.Wires {
		if w.Lost == 0 && !w.Dropped {
			continue
		}
		add(lost{player: w.Player, up: w.Up, labels: []string{w.Label}, sent: w.Sent, resent: w.Resent, at: w.At,
			times: w.Lost, held: w.Held, dropped: w.Dropped})
	}
	for _, c := range tl.clients {
		for _, way := range []sim.Way{sim.Up, sim.Down} {
			for _, f := range c.InFlight(way, nil) {
				if f.Lost == 0 || f.Dropped || f.Sent-tl.start > end {
					continue
				}
				add(lost{player: c.Name(), up: way == sim.Up, labels: []string{FlightLabel(f)}, sent: f.Sent - tl.start,
					resent: f.Resent - tl.start, at: f.At - tl.start, times: f.Lost, held: f.Held, inFlight: true})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b lost) int { return cmp.Compare(a.sent, b.sent) })
	return out
}

// lossLine is the line naming lost message m, at its first loss (the
// start, for one lost as the player joined), with the player's moment
// there; wires are the messages delivered, for what held m back.
func lossLine(lines []Line, m lost, wires []Wire, end time.Duration) Line {
	at := max(m.sent, 0)
	l := momentOf(lines, m.player, at)
	l.TMS, l.T, l.Zap, l.Input, l.Link = int64(at/time.Millisecond), int64(at), nil, nil, nil
	ll := &LossLine{Way: "down", Messages: m.labels, Dropped: m.dropped}
	if m.up {
		ll.Way = "up"
	}
	var s strings.Builder
	if m.up {
		s.WriteString(m.player + ": ")
	} else {
		s.WriteString("server: ")
	}
	s.WriteString(segmentOf(m))
	if m.dropped {
		ll.LostMS = []int64{m.sent.Milliseconds()}
		fmt.Fprintf(&s, " lost at %s: a datagram is not sent again", msText(m.sent))
		if m.up {
			s.WriteString(" (the next packet repeats its inputs)")
		} else {
			s.WriteString(" (the next State says as much)")
		}
		l.Event, l.Loss = s.String(), ll
		return l
	}
	tries := m.tries()
	var lostAt []time.Duration
	for _, t := range tries[:m.times] {
		if t <= end {
			lostAt = append(lostAt, t)
			ll.LostMS = append(ll.LostMS, t.Milliseconds())
		}
	}
	fmt.Fprintf(&s, " lost at %s", msList(lostAt))
	why := " (retransmission timeout)"
	if m.times > 1 {
		why = " (retransmission timeout, doubled after each loss)"
	}
	if m.resent <= end {
		fmt.Fprintf(&s, ", resent at %s%s", msText(m.resent), why)
		r := m.resent.Milliseconds()
		ll.ResentMS = &r
	} else {
		fmt.Fprintf(&s, "%s; the next copy leaves at %s, after the run's end", why, msText(tries[len(lostAt)]))
	}
	switch {
	case m.held && m.at <= end:
		fmt.Fprintf(&s, "; then it waits behind %s until %s", blocker(m, wires), msText(m.at))
	case m.held && m.resent <= end:
		s.WriteString("; then it waits behind an earlier segment, past the run's end")
	}
	if m.at <= end {
		d := m.at.Milliseconds()
		ll.DeliverMS = &d
	}
	l.Event, l.Loss = s.String(), ll
	return l
}

// segmentOf names what m carried, as a sentence begins: "#2's segment",
// "the segment with state ack #1 and stages", "the datagram with #1,#2".
func segmentOf(m lost) string {
	what := "segment"
	if m.dropped {
		what = "datagram"
	}
	if len(m.labels) == 1 && m.up && strings.HasPrefix(m.labels[0], "#") && !m.dropped {
		n, _, _ := strings.Cut(m.labels[0], " ")
		return n + "'s " + what
	}
	to := ""
	if !m.up {
		to = " to " + m.player
	}
	named := make([]string, len(m.labels))
	for i, l := range m.labels {
		named[i] = l
		if !strings.HasPrefix(l, "#") {
			named[i] = "the " + l
		}
	}
	return "the " + what + " with " + andList(named) + to
}

// blocker names the earlier segment m waited behind: the last one sent
// before it on its way that was delivered with it and not itself held;
// "an earlier segment" if the run does not show it.
func blocker(m lost, wires []Wire) string {
	name := "an earlier segment"
	for _, w := range wires {
		if w.Player == m.player && w.Up == m.up && w.Sent < m.sent && w.At == m.at && !w.Held {
			name = w.Label
			if !strings.HasPrefix(name, "#") {
				name = "the " + name
			}
		}
	}
	return name
}

// momentOf returns player's last moment at or before t: its last line
// then (an input's life is no moment of its own), or its first if it
// has none yet.
func momentOf(lines []Line, player string, t time.Duration) Line {
	var out Line
	found := false
	for _, l := range lines {
		if l.Player != player || l.Input != nil || l.Loss != nil {
			continue
		}
		if time.Duration(l.T) > t && found {
			break
		}
		out, found = l, true
	}
	out.Pending = slices.Clone(out.Pending)
	return out
}

// unacknowledged is the line that ends the timeline of client c whose
// inputs pending were never acknowledged: how many, which, and what the
// run shows of why (the last copy of a lost segment that was resent, and
// when the next one leaves), at the run's end.
func unacknowledged(lines []Line, c *sim.Client, pending []uint32, m []lost, end time.Duration) Line {
	l := momentOf(lines, c.Name(), end)
	l.TMS, l.T, l.Zap, l.Input, l.Link = int64(end/time.Millisecond), int64(end), nil, nil, nil
	seqs := make([]string, len(pending))
	for i, p := range pending {
		seqs[i] = fmt.Sprintf("#%d", p)
	}
	what := fmt.Sprintf("%d inputs never acknowledged (%s)", len(pending), strings.Join(seqs, ", "))
	if len(pending) == 1 {
		what = fmt.Sprintf("input %s never acknowledged", seqs[0])
	}
	if l.Ack == 0 { // not one input of the player's: say it plainly
		what = "nothing acknowledged in the whole run: " + what
	}
	// The last copy of a segment still on its way that left in the run.
	var last lost
	var lastAt, next time.Duration
	found := false
	for _, x := range m {
		if x.player != c.Name() || !x.inFlight || x.dropped {
			continue
		}
		tries := x.tries()
		for i, t := range tries[1:] {
			if t <= end && (!found || t >= lastAt) {
				last, lastAt, next, found = x, t, 0, true
				if i+2 < len(tries) {
					next = tries[i+2]
				}
			}
		}
	}
	switch {
	case found:
		what += fmt.Sprintf(": the run ended %s after the last one was resent (%s, at %s)", msText(end-lastAt), segmentOf(last), msText(lastAt))
		if next > 0 {
			what += fmt.Sprintf("; the next copy would leave at %s", msText(next))
		}
	default:
		what += fmt.Sprintf(": the run ended at %s, before their answers came back", msText(end))
	}
	l.Event = c.Name() + ": " + what
	l.Unacked = slices.Clone(pending)
	return l
}

// ending returns the timeline's lines, ended at end: a line naming each
// message lost on a followed player's link (at its first loss, in time
// order among the others), a line for each player with inputs never
// acknowledged, then the datagram links' lines (see LinkLines). Call it
// once the world is stopped at end.
func (tl *Timeline) ending(end time.Duration) []Line {
	m := tl.losses(end)
	lines := slices.Clone(tl.Lines)
	for _, x := range m {
		l := lossLine(tl.Lines, x, tl.Wires, end)
		i, _ := slices.BinarySearchFunc(lines, l.T, func(a Line, t int64) int {
			if a.T <= t {
				return -1
			}
			return 1
		})
		lines = slices.Insert(lines, i, l)
	}
	for _, c := range tl.clients {
		v := c.View()
		if !v.Connected || len(v.Pending) == 0 {
			continue
		}
		pending := make([]uint32, len(v.Pending))
		for i, p := range v.Pending {
			pending[i] = p.Seq
		}
		lines = append(lines, unacknowledged(tl.Lines, c, pending, m, end))
	}
	return LinkLines(lines, tl.clients, end)
}

// Close stops the timeline at end (since its start; the world must be
// there) and returns its lines, ended: with a line naming each message
// lost on the way, one for each player whose inputs were never
// acknowledged, and the datagram links' (see LinkLines).
func (tl *Timeline) Close(end time.Duration) []Line {
	tl.Stop()
	return tl.ending(end)
}

// msText writes a time since the start as the timeline's sentences do:
// "1,750 ms".
func msText(d time.Duration) string { return cli.Thousands(d.Milliseconds()) + " ms" }

// msList writes times as one sentence: "100 ms", "0, 250 and 750 ms".
func msList(ts []time.Duration) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = cli.Thousands(t.Milliseconds())
	}
	return andList(parts) + " ms"
}

// andList joins words as a sentence lists them: "a", "a and b", "a, b
// and c".
func andList(words []string) string {
	switch n := len(words); n {
	case 0:
		return ""
	case 1:
		return words[0]
	default:
		return strings.Join(words[:n-1], ", ") + " and " + words[n-1]
	}
}
