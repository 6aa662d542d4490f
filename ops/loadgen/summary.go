package loadgen

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"
	"time"
)

// The load generator's own figures that may go unmeasured, by their names
// in the JSON summary (and in Summary.Unmeasured).
const (
	figRTTp50    = "rtt_p50_ms"
	figRTTp99    = "rtt_p99_ms"
	figRTTMax    = "rtt_max_ms"
	figBytesIn   = "bytes_in_per_player_per_sec"
	figBytesOut  = "bytes_out_per_player_per_sec"
	figCPUUser   = "cpu_user_ms"
	figCPUSys    = "cpu_sys_ms"
	noneAcked    = "no input was acknowledged"
	noneWelcomed = "no player was welcomed"
)

// Summary is what a load run measured. A figure the run could not measure
// is zero and named in Unmeasured, with the reason: it is never printed
// as a number.
type Summary struct {
	// Players is how many players were welcomed.
	Players int
	// Refused counts the connections that were not welcomed, by reason
	// (the server's Error, or the dial's failure).
	Refused map[string]int
	// RefusedAtOnce is how many of the Refused the server refused as it
	// answered their Hello, without a place in its line. Line.Refused
	// more were refused after waiting in it; the rest failed before the
	// server said either (a dial's error, a timeout).
	RefusedAtOnce int
	// Dropped counts the welcomed connections that ended before the run
	// did, by reason.
	Dropped map[string]int

	// InputsSent and InputsAcked are summed over the players; after a
	// healthy run they are equal.
	InputsSent, InputsAcked uint64
	// RTTp50, RTTp99 and RTTMax are over every acknowledged input: from
	// writing it to reading the first State that acknowledges it (so they
	// include the wait for the server's next tick).
	RTTp50, RTTp99, RTTMax time.Duration
	// WalkRTTp99 is the round trip p99 over the walk alone, once every
	// player was in (after any wait in the server's line): 0 if no input
	// was acknowledged then.
	WalkRTTp99 time.Duration

	// BytesIn and BytesOut are the bytes read and written after the
	// handshakes (the Welcome, with its map, is not counted).
	BytesIn, BytesOut int64
	// BytesInPerPlayerPerSec and BytesOutPerPlayerPerSec are BytesIn and
	// BytesOut per second of connection, averaged over the players.
	BytesInPerPlayerPerSec, BytesOutPerPlayerPerSec float64
	// Pongs is how many of the server's Pings were answered.
	Pongs int64
	// Undecodable counts the frames that did not decode (skipped).
	Undecodable int64

	// Walked is how long the players walked once all were connected, and
	// waited for their last acknowledgements.
	Walked time.Duration
	// Duration is the whole run, from the first connection to the last
	// close.
	Duration time.Duration
	// CPUUser and CPUSys are the load generator's own CPU time over the
	// run (getrusage), in user space and in the kernel.
	CPUUser, CPUSys time.Duration

	// Unmeasured holds why each of the run's own figures that could not
	// be measured was not, by its JSON name (rtt_p50_ms, rtt_p99_ms,
	// rtt_max_ms, bytes_in_per_player_per_sec,
	// bytes_out_per_player_per_sec, cpu_user_ms, cpu_sys_ms). Nil when
	// every figure was measured.
	Unmeasured map[string]string

	// Line is what the players heard of the server's line while they
	// waited to be let in; nil if nobody waited.
	Line *LineSummary

	// Server is the server's side of the walk, from its metrics, when
	// Options.ServerMetrics was given: what the readings at the walk's
	// start and end gave, and why the rest is missing.
	Server *ServerSide
	// ServerErr says why a reading of the server's metrics failed, if one
	// did (the figures it kept from being measured say so too).
	ServerErr string
}

// unmeasured records why the run's figures named were not measured.
func (s *Summary) unmeasured(reason string, figures ...string) {
	if s.Unmeasured == nil {
		s.Unmeasured = map[string]string{}
	}
	for _, f := range figures {
		s.Unmeasured[f] = reason
	}
}

// summarize folds the players' counts into a Summary.
func (r *run) summarize(players []*player, walked time.Duration, cpu cpuTime) Summary {
	s := Summary{
		Players: len(players), Refused: r.refused, Dropped: map[string]int{},
		Undecodable: r.undecodable.Load(), Walked: walked, Duration: r.since(),
		CPUUser: cpu.user, CPUSys: cpu.sys, Line: r.line.summary(), RefusedAtOnce: r.line.refusedAtOnce(),
	}
	if r.rtt.count() == 0 {
		s.unmeasured(noneAcked, figRTTp50, figRTTp99, figRTTMax)
	} else {
		s.RTTp50, s.RTTp99, s.RTTMax = r.rtt.percentile(50), r.rtt.percentile(99), time.Duration(r.rtt.max.Load())
	}
	if cpu.err != nil {
		s.unmeasured("the system did not give this process's CPU time: "+cpu.err.Error(), figCPUUser, figCPUSys)
	}
	timed := 0 // players whose connection lasted a measurable time
	for _, p := range players {
		if p.drop != "" {
			s.Dropped[p.drop]++
		}
		in, out := p.dec.BytesRead-p.inBase, p.out.Load()
		s.InputsSent += uint64(p.seq)
		s.InputsAcked += uint64(p.acked)
		s.BytesIn += in
		s.BytesOut += out
		s.Pongs += p.pongs.Load()
		if secs := (p.left - p.joined).Seconds(); secs > 0 {
			s.BytesInPerPlayerPerSec += float64(in) / secs
			s.BytesOutPerPlayerPerSec += float64(out) / secs
			timed++
		}
	}
	switch {
	case s.Players == 0:
		s.unmeasured(noneWelcomed, figBytesIn, figBytesOut)
	case timed == 0:
		s.unmeasured("no connection lasted a measurable time", figBytesIn, figBytesOut)
	default:
		s.BytesInPerPlayerPerSec /= float64(timed)
		s.BytesOutPerPlayerPerSec /= float64(timed)
	}
	return s
}

// missing returns why figure f is unmeasured, and whether it is.
func (s Summary) missing(f string) (string, bool) {
	why, ok := s.Unmeasured[f]
	return why, ok
}

// WriteText writes the summary for a reader, one line per figure. A
// figure that was not measured says so and why, in place of a number.
func (s Summary) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "players     %d welcomed, %d refused%s, %d dropped\n", s.Players, total(s.Refused), s.refusedWhen(), total(s.Dropped))
	if s.InputsSent > 0 {
		fmt.Fprintf(&b, "inputs      %d sent, %d acknowledged (%.2f%%)\n", s.InputsSent, s.InputsAcked, 100*float64(s.InputsAcked)/float64(s.InputsSent))
	} else {
		fmt.Fprintf(&b, "inputs      none sent\n")
	}
	if why, ok := s.missing(figRTTp50); ok {
		fmt.Fprintf(&b, "round trip  not measured: %s\n", why)
	} else {
		fmt.Fprintf(&b, "round trip  p50 %v, p99 %v, max %v", ms(s.RTTp50), ms(s.RTTp99), ms(s.RTTMax))
		if s.Line != nil && s.WalkRTTp99 > 0 {
			fmt.Fprintf(&b, "; p99 %v once all were in", ms(s.WalkRTTp99))
		}
		b.WriteString("\n")
	}
	if why, ok := s.missing(figBytesIn); ok {
		fmt.Fprintf(&b, "bytes       %d in, %d out in all; per player per second not measured: %s\n", s.BytesIn, s.BytesOut, why)
	} else {
		fmt.Fprintf(&b, "bytes       %.0f in, %.0f out per player per second (%d in, %d out in all)\n",
			s.BytesInPerPlayerPerSec, s.BytesOutPerPlayerPerSec, s.BytesIn, s.BytesOut)
	}
	if s.Line != nil {
		b.WriteString(s.Line.text())
	}
	fmt.Fprintf(&b, "time        walked %v, whole run %v\n", ms(s.Walked), ms(s.Duration))
	switch why, missing := s.missing(figCPUUser); {
	case missing:
		fmt.Fprintf(&b, "own cpu     not measured: %s\n", why)
	case s.Duration > 0:
		cpu := s.CPUUser + s.CPUSys
		fmt.Fprintf(&b, "own cpu     %v user, %v sys (%.0f%% of one core)\n", ms(s.CPUUser), ms(s.CPUSys), 100*cpu.Seconds()/s.Duration.Seconds())
	default:
		fmt.Fprintf(&b, "own cpu     %v user, %v sys\n", ms(s.CPUUser), ms(s.CPUSys))
	}
	if v := s.Server; v != nil {
		b.WriteString(v.text())
	}
	writeReasons(&b, "refused", s.Refused)
	writeReasons(&b, "dropped", s.Dropped)
	if s.Undecodable > 0 {
		fmt.Fprintf(&b, "skipped     %d frames that did not decode\n", s.Undecodable)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// refusedWhen is when the refusals came, for the players line, once any
// player waited in the server's line: " (7281 at once, 1594 after
// waiting in line)", and how many failed before the server said either.
// "" when nobody waited or nobody was refused.
func (s Summary) refusedWhen() string {
	refused := total(s.Refused)
	if s.Line == nil || refused == 0 {
		return ""
	}
	t := fmt.Sprintf(" (%d at once, %d after waiting in line", s.RefusedAtOnce, s.Line.Refused)
	if other := refused - s.RefusedAtOnce - s.Line.Refused; other > 0 {
		t += fmt.Sprintf(", %d as the connection failed", other)
	}
	return t + ")"
}

// text is the server's line of the text summary: each figure, or why it
// is missing. When every figure is missing for one reason, the line
// gives that reason once.
func (v *ServerSide) text() string {
	all := []string{figTicks, figTickP50, figTickP99, figCPU, figCPUShare, figRSS}
	reasons := map[string]bool{}
	for _, f := range all {
		if why, ok := v.Unmeasured[f]; ok {
			reasons[why] = true
		}
	}
	if len(v.Unmeasured) == len(all) && len(reasons) == 1 {
		return fmt.Sprintf("server      no figures: %s\n", v.Unmeasured[figTicks])
	}
	figure := func(f, name, format string, a ...any) string {
		if why, ok := v.Unmeasured[f]; ok {
			return fmt.Sprintf("%s not measured (%s)", name, why)
		}
		return fmt.Sprintf(format, a...)
	}
	ticks := figure(figTicks, "ticks", "%d ticks", v.Ticks)
	p50 := figure(figTickP50, "tick p50", "tick p50 <= %s", secondsText(v.TickP50))
	p99 := figure(figTickP99, "p99", "p99 <= %s", secondsText(v.TickP99))
	cpu := figure(figCPU, "cpu", "cpu %v", ms(v.CPU))
	share := figure(figCPUShare, "share of a core", "%.0f%% of one core", 100*v.CPUShare)
	rss := figure(figRSS, "rss", "rss %.0f MB at the walk's end", v.RSS/(1<<20))
	return fmt.Sprintf("server      %s, %s, %s; %s (%s), %s\n", ticks, p50, p99, cpu, share, rss)
}

// writeReasons writes one line per reason, the most frequent first.
// Reasons that differ only in their figures ("server full: at capacity:
// its ticks take 31ms ...", then 33ms) are one line: the most frequent
// of them, the count of them all, and how many texts it stands for.
func writeReasons(b *strings.Builder, what string, reasons map[string]int) {
	type group struct {
		text         string // its most frequent text
		count, texts int
	}
	groups := map[string]*group{}
	for text, n := range reasons {
		k := withoutFigures(text)
		g := groups[k]
		if g == nil {
			g = &group{}
			groups[k] = g
		}
		if n > reasons[g.text] || n == reasons[g.text] && text < g.text || g.texts == 0 {
			g.text = text
		}
		g.count += n
		g.texts++
	}
	keys := slices.SortedFunc(maps.Keys(groups), func(a, b string) int {
		if groups[a].count != groups[b].count {
			return groups[b].count - groups[a].count
		}
		return strings.Compare(a, b)
	})
	for _, k := range keys {
		g := groups[k]
		fmt.Fprintf(b, "%-11s %d x %s", what, g.count, g.text)
		if g.texts > 1 {
			fmt.Fprintf(b, " (and %d more texts like it, the figures differing)", g.texts-1)
		}
		b.WriteString("\n")
	}
}

// withoutFigures returns text with each number in it (digits, with a
// point or a comma between them) replaced by "#".
func withoutFigures(text string) string {
	var b strings.Builder
	in := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		digit := c >= '0' && c <= '9'
		inner := in && (c == '.' || c == ',') && i+1 < len(text) && text[i+1] >= '0' && text[i+1] <= '9'
		switch {
		case digit || inner:
			if !in {
				b.WriteByte('#')
			}
			in = true
		default:
			in = false
			b.WriteByte(c)
		}
	}
	return b.String()
}

// total is the number of connections counted over all reasons.
func total(reasons map[string]int) int {
	n := 0
	for _, v := range reasons {
		n += v
	}
	return n
}

// ms rounds d for reading: to 0.1 ms.
func ms(d time.Duration) time.Duration { return d.Round(100 * time.Microsecond) }

// jsonSummary is the JSON form of a Summary: times in milliseconds, and
// null for a figure that was not measured, with the reason in
// unmeasured.
type jsonSummary struct {
	Players             int               `json:"players"`
	Refused             map[string]int    `json:"refused"`
	RefusedAtOnce       int               `json:"refused_at_once"`
	Dropped             map[string]int    `json:"dropped"`
	InputsSent          uint64            `json:"inputs_sent"`
	InputsAcked         uint64            `json:"inputs_acked"`
	RTTp50              *float64          `json:"rtt_p50_ms"`
	RTTp99              *float64          `json:"rtt_p99_ms"`
	RTTMax              *float64          `json:"rtt_max_ms"`
	BytesIn             int64             `json:"bytes_in"`
	BytesOut            int64             `json:"bytes_out"`
	BytesInPerPlayerSec *float64          `json:"bytes_in_per_player_per_sec"`
	BytesOutPerPlayerS  *float64          `json:"bytes_out_per_player_per_sec"`
	Pongs               int64             `json:"pongs"`
	Undecodable         int64             `json:"undecodable"`
	Walked              float64           `json:"walked_ms"`
	Duration            float64           `json:"duration_ms"`
	CPUUser             *float64          `json:"cpu_user_ms"`
	CPUSys              *float64          `json:"cpu_sys_ms"`
	Unmeasured          map[string]string `json:"unmeasured,omitempty"`
	WalkRTTp99          *float64          `json:"walk_rtt_p99_ms,omitempty"`
	Line                *jsonLine         `json:"line,omitempty"`
	Server              *jsonServer       `json:"server,omitempty"`
	ServerErr           string            `json:"server_error,omitempty"`
}

// jsonLine is the JSON form of a LineSummary: waits in milliseconds;
// line_wait_ms null if the server said no bound.
type jsonLine struct {
	Queued            int      `json:"queued"`
	Refused           int      `json:"refused"`
	Fell              int      `json:"place_fell"`
	Longest           int      `json:"longest_line"`
	WaitP50           float64  `json:"wait_p50_ms"`
	WaitMax           float64  `json:"wait_max_ms"`
	RefusedWaitP50    float64  `json:"refused_wait_p50_ms"`
	RefusedWaitMax    float64  `json:"refused_wait_max_ms"`
	Bound             *float64 `json:"line_wait_ms"`
	RefusedAfterBound int      `json:"refused_after_line_wait"`
}

// jsonServer is the JSON form of a ServerSide: tick bounds in
// milliseconds; null for a figure that was not measured, with the reason
// in unmeasured.
type jsonServer struct {
	Ticks      *uint64           `json:"ticks"`
	TickP50    *float64          `json:"tick_p50_ms_at_most"`
	TickP99    *float64          `json:"tick_p99_ms_at_most"`
	CPU        *float64          `json:"cpu_ms"`
	CPUShare   *float64          `json:"cpu_share_of_a_core"`
	RSS        *float64          `json:"rss_bytes"`
	Unmeasured map[string]string `json:"unmeasured,omitempty"`
}

// figure is v, or nil if the figure f was not measured: why names it, or
// is given the reason if v is no finite number (which JSON cannot hold,
// and which would lose the whole summary).
func figure[T uint64 | float64](why map[string]string, f string, v T) *T {
	if _, ok := why[f]; ok {
		return nil
	}
	if x := float64(v); math.IsNaN(x) || math.IsInf(x, 0) {
		why[f] = fmt.Sprintf("%v is not a finite number", x)
		return nil
	}
	return &v
}

// reasons copies the reasons for unmeasured figures, for figure to add to.
func reasons(u map[string]string) map[string]string {
	if u == nil {
		return map[string]string{}
	}
	return maps.Clone(u)
}

// orNil is m, or nil if it is empty (so that JSON leaves it out).
func orNil(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return m
}

// msf is d in milliseconds.
func msf(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// WriteJSON writes the summary as one JSON object on one line. Every
// figure is there: a number, or null with the reason in "unmeasured" (the
// server's in "server"'s own "unmeasured").
func (s Summary) WriteJSON(w io.Writer) error {
	var server *jsonServer
	if v := s.Server; v != nil {
		u := reasons(v.Unmeasured)
		server = &jsonServer{
			Ticks:   figure(u, figTicks, v.Ticks),
			TickP50: figure(u, figTickP50, v.TickP50*1000), TickP99: figure(u, figTickP99, v.TickP99*1000),
			CPU: figure(u, figCPU, msf(v.CPU)), CPUShare: figure(u, figCPUShare, v.CPUShare),
			RSS: figure(u, figRSS, v.RSS),
		}
		server.Unmeasured = orNil(u)
	}
	u := reasons(s.Unmeasured)
	js := jsonSummary{
		Server: server, ServerErr: s.ServerErr,
		Players: s.Players, Refused: s.Refused, RefusedAtOnce: s.RefusedAtOnce, Dropped: s.Dropped,
		InputsSent: s.InputsSent, InputsAcked: s.InputsAcked,
		RTTp50: figure(u, figRTTp50, msf(s.RTTp50)), RTTp99: figure(u, figRTTp99, msf(s.RTTp99)), RTTMax: figure(u, figRTTMax, msf(s.RTTMax)),
		BytesIn: s.BytesIn, BytesOut: s.BytesOut,
		BytesInPerPlayerSec: figure(u, figBytesIn, s.BytesInPerPlayerPerSec), BytesOutPerPlayerS: figure(u, figBytesOut, s.BytesOutPerPlayerPerSec),
		Pongs: s.Pongs, Undecodable: s.Undecodable,
		Walked: msf(s.Walked), Duration: msf(s.Duration),
		CPUUser: figure(u, figCPUUser, msf(s.CPUUser)), CPUSys: figure(u, figCPUSys, msf(s.CPUSys)),
	}
	js.Unmeasured = orNil(u)
	if s.WalkRTTp99 > 0 {
		v := msf(s.WalkRTTp99)
		js.WalkRTTp99 = &v
	}
	if l := s.Line; l != nil {
		js.Line = &jsonLine{Queued: l.Queued, Refused: l.Refused, Fell: l.Fell, Longest: l.Longest, WaitP50: msf(l.WaitP50), WaitMax: msf(l.WaitMax),
			RefusedWaitP50: msf(l.RefusedWaitP50), RefusedWaitMax: msf(l.RefusedWaitMax), RefusedAfterBound: l.RefusedAfterBound}
		if l.Bound > 0 {
			v := msf(l.Bound)
			js.Line.Bound = &v
		}
	}
	return json.NewEncoder(w).Encode(js)
}
