package lab

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"gridlag/client"
	"gridlag/lab/sim"
)

// A fact is something the lab shows that a lesson's check names: its
// value as the check writes it, and a sentence saying it.
type fact struct {
	name string // with P for a player's number: "pP.sees"
	say  string // with %[1]s for the player, %[2]s for the value
	get  func(l *Lab, p int) string
	// dur gives the value as a time, for a lesson's text ("317 ms") and
	// its sums, when it is one (ok false: "off", "none").
	dur func(l *Lab, p int) (d time.Duration, ok bool)
}

// value returns the fact as a lesson's text shows it.
func (f fact) value(l *Lab, p int) value {
	if f.dur != nil {
		if d, ok := f.dur(l, p); ok {
			return timeValue(d)
		}
	}
	return value{s: f.get(l, p)}
}

// help says what the fact is, for the list of quantities.
func (f fact) help() string {
	return strings.TrimPrefix(fmt.Sprintf(f.say, "Player P", "…", "Player Q"), "the ")
}

// facts are the names a check takes. P stands for a player (1 or 2),
// Q for the other one.
var facts = []fact{
	{"pP.sees", "%[1]s sees itself at %[2]s", func(l *Lab, p int) string { return l.players[p].View().Predicted.String() }, nil},
	{"pP.ghost", "%[1]s's ghost (the server's last word) is at %[2]s", func(l *Lab, p int) string { return l.players[p].View().Server.String() }, nil},
	{"pP.sees.pQ", "%[1]s draws %[3]s at %[2]s", func(l *Lab, p int) string {
		other := l.players[1-p].View().Me
		for _, o := range l.players[p].View().Others {
			if o.ID == other {
				return o.Pos.String()
			}
		}
		return "nowhere"
	}, nil},
	{"server.pP", "the server has %[1]s at %[2]s", func(l *Lab, p int) string {
		me := l.players[p].View().Me
		for _, s := range l.Overview().Players {
			if s.ID == me {
				return s.Pos.String()
			}
		}
		return "nowhere"
	}, nil},
	{"pP.pending", "%[1]s's pending inputs: %[2]s", func(l *Lab, p int) string {
		var seqs []string
		for _, q := range l.players[p].View().Pending {
			seqs = append(seqs, "#"+strconv.FormatUint(uint64(q.Seq), 10))
		}
		if len(seqs) == 0 {
			return "none"
		}
		return strings.Join(seqs, " ")
	}, nil},
	{"pP.ack", "%[1]s's last ack is %[2]s", func(l *Lab, p int) string {
		return "#" + strconv.FormatUint(uint64(l.players[p].View().LastAck), 10)
	}, nil},
	{"pP.corrections", "%[1]s's corrections: %[2]s", func(l *Lab, p int) string { return strconv.Itoa(l.players[p].View().Corrections) }, nil},
	{"pP.zap", "%[1]s reads: %[2]s", func(l *Lab, p int) string {
		if z := l.players[p].View().LastZap; z != nil {
			return z.Line()
		}
		return "none"
	}, nil},
	{"pP.tagged", "%[1]s reads: %[2]s", func(l *Lab, p int) string {
		if n := l.players[p].View().LastTagged; n != nil {
			return n.Line()
		}
		return "none"
	}, nil},
	{"pP.frozen", "%[1]s frozen: %[2]s", func(l *Lab, p int) string { return yesNo(l.players[p].View().Frozen) }, nil},
	{"pP.rtt", "%[1]s's round trip: %[2]s", func(l *Lab, p int) string { return client.Millis(l.players[p].View().RTT) },
		func(l *Lab, p int) (time.Duration, bool) { return l.players[p].View().RTT, true }},
	{"pP.interp", "%[1]s draws the other %[2]s in the past (interpolation delay)", func(l *Lab, p int) string {
		v := l.players[p].View()
		if !v.Interpolate {
			return "off"
		}
		return client.Millis(v.InterpDelay)
	}, func(l *Lab, p int) (time.Duration, bool) {
		v := l.players[p].View()
		return v.InterpDelay, v.Interpolate
	}},
	{"pP.lost", "messages lost on %[1]s's link: %[2]s", func(l *Lab, p int) string {
		return strconv.Itoa(l.countFlights(p, func(f sim.Flight) bool { return f.Lost > 0 }))
	}, nil},
	{"pP.waiting", "messages waiting behind a lost one on %[1]s's link: %[2]s", func(l *Lab, p int) string {
		return strconv.Itoa(l.countFlights(p, func(f sim.Flight) bool { return f.Waiting }))
	}, nil},
	{"server.zap", "the server's last zap: %[2]s", func(l *Lab, _ int) string {
		z, ok := l.world.LastZap()
		if !ok {
			return "none"
		}
		if z.Hit() {
			return "hit " + l.name(z.Target)
		}
		return "miss"
	}, nil},
	{"server.rewind", "the server looked %[2]s back", func(l *Lab, _ int) string {
		z, ok := l.world.LastZap()
		if !ok {
			return "none"
		}
		return client.Millis(z.Rewind)
	}, func(l *Lab, _ int) (time.Duration, bool) {
		z, ok := l.world.LastZap()
		return z.Rewind, ok
	}},
	{"t", "the lab's clock says %[2]s", func(l *Lab, _ int) string { return fmt.Sprintf("%.3fs", l.Now().Seconds()) },
		func(l *Lab, _ int) (time.Duration, bool) { return l.Now(), true }},
}

// yesNo writes a switch as a check does.
func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// countFlights counts the messages on player p's link, both ways, that
// match.
func (l *Lab) countFlights(p int, match func(sim.Flight) bool) int {
	n := 0
	for _, way := range []sim.Way{sim.Up, sim.Down} {
		for _, f := range l.players[p].Client.InFlight(way, nil) {
			if match(f) {
				n++
			}
		}
	}
	return n
}

// checkFact finds the fact a check names ("p1.sees", "server.p2"): a
// function giving its value and the sentence saying it.
func checkFact(what string) (func(l *Lab) (value, sentence string), bool) {
	for _, f := range facts {
		for p := range 2 {
			name := strings.NewReplacer("P", strconv.Itoa(p+1), "Q", strconv.Itoa(2-p)).Replace(f.name)
			if name != what {
				continue
			}
			return func(l *Lab) (string, string) {
				v := f.get(l, p)
				return v, fmt.Sprintf(f.say, l.players[p].Name(), v, l.players[1-p].Name())
			}, true
		}
	}
	return nil, false
}

// CheckNames lists the facts a lesson's check takes, P for 1 or 2.
func CheckNames() string {
	var names []string
	for _, f := range facts {
		names = append(names, f.name)
	}
	return strings.Join(slices.Clip(names), ", ")
}

// CheckResult is a check as the lab answered it.
type CheckResult struct {
	Check
	Got      string // the value the lab shows
	Sentence string // saying it
}

// OK reports whether the lab shows what the lesson said.
func (r CheckResult) OK() bool { return r.Got == r.Want }

// String says it, and what the lesson said when the lab differs.
func (r CheckResult) String() string {
	if r.OK() {
		return r.Sentence
	}
	return fmt.Sprintf("%s (the lesson says %s)", r.Sentence, r.Want)
}

// answer checks a moment's checks against the lab as it is.
func (l *Lab) answer(m *Moment) []CheckResult {
	var out []CheckResult
	for _, c := range m.Checks {
		get, _ := checkFact(c.What)
		got, sentence := get(l)
		out = append(out, CheckResult{Check: c, Got: got, Sentence: sentence})
	}
	return out
}
