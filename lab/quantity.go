package lab

import (
	"errors"
	"fmt"
	"gridlag/client"
	"strconv"
	"strings"
	"time"
)

// A lesson's texts (a step's title, its words, a question, an answer) name
// the quantities they give, in braces, and the lab fills them in from the
// run they describe: "two cells right, {p1.moved.3 - p1.moved.2} still"
// reads "two cells right, 150 ms still" when the lab shows it so, and
// reads something else when a setting of the lesson changes the run. A
// placeholder is { and a quantity's name (see QuantityNames), or names of
// times joined by + and -, and }; {{ writes a { and }} a }, and a { not
// followed by a small letter is written as it is (the rate keys, "{ }").
//
// There are three kinds of quantities:
//
//   - what the lab shows at the moment the text is shown (the facts a
//     check names: p1.sees, server.p2, p1.interp, t, ...; and the link as
//     it is: p1.latency, p1.oneway, p1.jitter, p1.loss, rate);
//   - when something happens in the step's run, a time since the step's
//     start: p1.sent.N (Player 1's input #N leaves), p1.arrived.N (the
//     server processes it), p1.acked.N (the first state acknowledging it
//     reaches Player 1), p1.moved.N (Player 1's own cell on its board
//     changes for the Nth time in the step);
//   - how many: p1.presses (the inputs Player 1 sends in the step),
//     p1.moves (the times its own cell changes).
//
// The lab rehearses each step before it is given (see rehearsal), so a
// text can name what happens later in the step: a step's words can say
// when the presses will come. A placeholder that names something the
// step's run never does is an error, with its line, when the lesson is
// loaded.

// value is a quantity's value: a time (which texts write "150ms", as
// the boards do, and
// which + and - take), or words ("(12,10)", "#1 #2", "hit Player 2").
type value struct {
	isTime bool
	d      time.Duration
	s      string
}

// timeValue is the value of a time.
func timeValue(d time.Duration) value { return value{isTime: true, d: d} }

// text writes the value as a lesson's text shows it.
func (v value) text() string {
	if v.isTime {
		return client.Millis(v.d)
	}
	return v.s
}

// pending is what a text shows for a quantity the run has not produced
// yet, when the lab was touched and the rehearsal no longer says what
// comes.
const pending = "…"

// term is one quantity of a placeholder, with its sign.
type term struct {
	minus bool
	name  string // as written: "p1.sent.2"
	q     *quantity
	p     int    // the player it is of (0 for Player 1)
	n     uint32 // the event's number (p1.sent.N)
}

// placeholder is a {...} of a text: its place in the raw text and its
// terms.
type placeholder struct {
	from, to int // byte offsets of { and past }
	terms    []term
}

// quantity is a kind of quantity a placeholder names.
type quantity struct {
	name string // with P for a player (1 or 2) and N for a number: "pP.sent.N"
	help string
	// at gives what the lab shows now (a fact, the link); run what the
	// run's log says.
	at  func(l *Lab, p int) value
	run func(g *runLog, p int, n uint32) (value, error)
}

// runQuantity is a quantity of the step's run: the time of the event of
// kind k numbered N, or a count of the events of kind k.
func runQuantity(name, help string, k logKind, count bool) quantity {
	return quantity{name: name, help: help, run: func(g *runLog, p int, n uint32) (value, error) {
		if count {
			return value{s: strconv.Itoa(g.count(p, k))}, nil
		}
		e, ok := g.find(p, k, n)
		if !ok {
			return value{}, fmt.Errorf("Player %d %s", p+1, never[k](n))
		}
		return timeValue(e.T), nil
	}}
}

// never says what a run lacks when a placeholder names an event of kind k
// it does not have.
var never = map[logKind]func(n uint32) string{
	logSent:    func(n uint32) string { return fmt.Sprintf("sends no input #%d in this step", n) },
	logArrived: func(n uint32) string { return fmt.Sprintf("has no input #%d processed by the server in this step", n) },
	logAcked:   func(n uint32) string { return fmt.Sprintf("is never told the server processed #%d in this step", n) },
	logMoved:   func(n uint32) string { return fmt.Sprintf("does not move %d times on its board in this step", n) },
}

// quantities are the names a placeholder takes, besides the facts of the
// checks (see facts).
var quantities = []quantity{
	runQuantity("pP.sent.N", "when Player P's input #N leaves (a move or a zap)", logSent, false),
	runQuantity("pP.arrived.N", "when the server processes Player P's input #N", logArrived, false),
	runQuantity("pP.acked.N", "when the first state acknowledging #N reaches Player P", logAcked, false),
	runQuantity("pP.moved.N", "when Player P's own cell on its board changes for the Nth time", logMoved, false),
	runQuantity("pP.presses", "how many inputs Player P sends in the step", logSent, true),
	runQuantity("pP.moves", "how many times Player P's own cell on its board changes in the step", logMoved, true),
	{name: "pP.latency", help: "Player P's round trip, as its link has it", at: func(l *Lab, p int) value {
		return timeValue(l.players[p].View().Latency)
	}},
	{name: "pP.oneway", help: "half of it: one way", at: func(l *Lab, p int) value {
		return timeValue(l.players[p].View().Latency / 2)
	}},
	{name: "pP.jitter", help: "Player P's jitter", at: func(l *Lab, p int) value {
		return timeValue(l.players[p].View().Jitter)
	}},
	{name: "pP.loss", help: "Player P's loss, 20 %", at: func(l *Lab, p int) value {
		return value{s: strconv.FormatFloat(100*l.players[p].Loss(), 'f', -1, 64) + " %"}
	}},
	{name: "pP.bytes.up", help: "the game's bytes Player P has sent since t=0 (its frames, as the wire format writes them)", at: func(l *Lab, p int) value {
		up, _ := l.players[p].GameBytes()
		return value{s: strconv.FormatInt(up, 10) + " B"}
	}},
	{name: "pP.bytes.down", help: "the game's bytes Player P has received since t=0", at: func(l *Lab, p int) value {
		_, down := l.players[p].GameBytes()
		return value{s: strconv.FormatInt(down, 10) + " B"}
	}},
	{name: "rate", help: "the server's update rate, states a second", at: func(l *Lab, _ int) value {
		return value{s: strconv.Itoa(l.Rate())}
	}},
}

// allQuantities returns every quantity a placeholder names: the checks'
// facts, then quantities.
func allQuantities() []quantity {
	out := make([]quantity, 0, len(facts)+len(quantities))
	for _, f := range facts {
		out = append(out, quantity{name: f.name, help: f.help(), at: f.value})
	}
	return append(out, quantities...)
}

// QuantityNames lists the quantities a lesson's text names in braces, P
// for a player (1 or 2), Q for the other, N for a number from 1, each
// with what it is.
func QuantityNames() []string {
	var out []string
	for _, q := range allQuantities() {
		out = append(out, q.name+": "+q.help)
	}
	return out
}

// lookup finds the quantity a placeholder's name means: "p2.acked.3".
func lookup(name string) (term, bool) {
	for _, q := range allQuantities() {
		for p := range 2 {
			pattern := strings.NewReplacer("P", strconv.Itoa(p+1), "Q", strconv.Itoa(2-p)).Replace(q.name)
			if prefix, ok := strings.CutSuffix(pattern, ".N"); ok {
				rest, ok := strings.CutPrefix(name, prefix+".")
				n, err := strconv.ParseUint(rest, 10, 32)
				if ok && err == nil && n > 0 && strconv.FormatUint(n, 10) == rest {
					return term{name: name, q: &q, p: p, n: uint32(n)}, true
				}
				continue
			}
			if pattern == name {
				return term{name: name, q: &q, p: p}, true
			}
		}
	}
	return term{}, false
}

// parseText finds the placeholders of a lesson's text; the error says
// which one is wrong and why, quoting only it, through show (see
// readDirectives; excerpt once the text is known to be a lesson's).
func parseText(s string, show func(string) string) ([]placeholder, error) {
	var out []placeholder
	for i := 0; i < len(s); i++ {
		if s[i] != '{' {
			continue
		}
		if i+1 < len(s) && s[i+1] == '{' {
			i++ // {{ writes a {
			continue
		}
		if i+1 >= len(s) || s[i+1] < 'a' || s[i+1] > 'z' {
			continue // a { on its own: a key's name
		}
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			return nil, fmt.Errorf("%q has no closing }", show(s[i:]))
		}
		ph := placeholder{from: i, to: i + end + 1}
		expr := s[i+1 : i+end]
		terms, err := parseExpr(expr, show)
		if err != nil {
			return nil, fmt.Errorf("{%s}: %v", show(expr), err)
		}
		ph.terms = terms
		out = append(out, ph)
		i += end
	}
	return out, nil
}

// parseExpr reads a placeholder's inside: names joined by + and -.
func parseExpr(expr string, show func(string) string) ([]term, error) {
	var terms []term
	minus := false
	fields := strings.Fields(strings.NewReplacer("+", " + ", "-", " - ").Replace(expr))
	for i, f := range fields {
		if i%2 == 1 {
			if f != "+" && f != "-" {
				return nil, fmt.Errorf("want + or - between two quantities, not %q", show(f))
			}
			minus = f == "-"
			continue
		}
		t, ok := lookup(f)
		if !ok {
			return nil, fmt.Errorf("no quantity %q (see \"Numbers from the run\" in docs/lab.md)", show(f))
		}
		t.minus = minus
		terms = append(terms, t)
	}
	if len(terms) == 0 || len(fields)%2 == 0 {
		return nil, errors.New("want a quantity, or times joined by + and -")
	}
	return terms, nil
}

// moment is what the lab shows at one moment, for the quantities of
// that kind: every name, both players.
type moment map[string]value

// snapshot takes what the lab shows now, as the quantities of that kind
// have it.
func (l *Lab) snapshot() moment {
	m := moment{}
	for _, q := range allQuantities() {
		if q.at == nil {
			continue
		}
		for p := range 2 {
			name := strings.NewReplacer("P", strconv.Itoa(p+1), "Q", strconv.Itoa(2-p)).Replace(q.name)
			m[name] = q.at(l, p)
		}
	}
	return m
}

// equal reports whether two moments show the same.
func (m moment) equal(o moment) bool {
	if len(m) != len(o) {
		return false
	}
	for k, v := range m {
		if o[k] != v {
			return false
		}
	}
	return true
}

// filled is a text with its placeholders filled in, and where in it each
// placeholder's value went.
type filled struct {
	text  string
	spans [][2]int
}

// fill fills in the placeholders of text s: what the lab shows from at,
// the run's events from g. With whole, g is the step's whole run and an
// event it lacks is an error; else it is the run so far and an event not
// there yet shows as pending.
func fill(s string, at moment, g *runLog, whole bool) (filled, error) {
	phs, err := parseText(s, excerpt)
	if err != nil {
		return filled{}, err
	}
	var b strings.Builder
	var spans [][2]int
	last := 0
	for _, ph := range phs {
		b.WriteString(unescape(s[last:ph.from]))
		v, err := evaluate(ph.terms, at, g, whole)
		switch {
		case err != nil && whole:
			return filled{}, fmt.Errorf("%s: %v", s[ph.from:ph.to], err)
		case err != nil:
			v = pending // a sum of what is no longer a time: a switch turned off
		}
		start := b.Len()
		b.WriteString(v)
		spans = append(spans, [2]int{start, b.Len()})
		last = ph.to
	}
	b.WriteString(unescape(s[last:]))
	return filled{text: b.String(), spans: spans}, nil
}

// unescape writes {{ as { and }} as }.
func unescape(s string) string {
	return strings.NewReplacer("{{", "{", "}}", "}").Replace(s)
}

// evaluate works out a placeholder's value as its text shows it.
func evaluate(terms []term, at moment, g *runLog, whole bool) (string, error) {
	var vals []value
	for _, t := range terms {
		var v value
		switch {
		case t.q.at != nil:
			v = at[strings.NewReplacer("P", strconv.Itoa(t.p+1), "Q", strconv.Itoa(2-t.p)).Replace(t.q.name)]
		default:
			var err error
			v, err = t.q.run(g, t.p, t.n)
			if err != nil && whole {
				return "", err
			}
			if err != nil || !whole && !t.q.event() {
				return pending, nil // not happened yet, or a count of a run not over
			}
		}
		vals = append(vals, v)
	}
	if len(vals) == 1 {
		return vals[0].text(), nil
	}
	var sum time.Duration
	for i, v := range vals {
		if !v.isTime {
			return "", fmt.Errorf("%s is not a time: only times add and subtract", terms[i].name)
		}
		if terms[i].minus {
			sum -= v.d
		} else {
			sum += v.d
		}
	}
	return timeValue(sum).text(), nil
}

// event reports whether the quantity is the time of an event (which is
// known once it happened), not a count of the whole run.
func (q *quantity) event() bool { return strings.HasSuffix(q.name, ".N") }
