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

// Summary is what a load run measured.
type Summary struct {
	// Players is how many players were welcomed.
	Players int
	// Refused counts the connections that were not welcomed, by reason
	// (the server's Error, or the dial's failure).
	Refused map[string]int
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

	// Server is the server's side of the walk, from its metrics, when
	// Options.ServerMetrics was given and both readings worked; else
	// ServerErr says why not.
	Server    *ServerSide
	ServerErr string
}

// summarize folds the players' counts into a Summary.
func (r *run) summarize(players []*player, walked time.Duration, cpu cpuTime) Summary {
	s := Summary{
		Players: len(players), Refused: r.refused, Dropped: map[string]int{},
		RTTp50: r.rtt.percentile(50), RTTp99: r.rtt.percentile(99), RTTMax: time.Duration(r.rtt.max.Load()),
		Undecodable: r.undecodable.Load(), Walked: walked, Duration: r.since(),
		CPUUser: cpu.user, CPUSys: cpu.sys,
	}
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
		}
	}
	if s.Players > 0 {
		s.BytesInPerPlayerPerSec /= float64(s.Players)
		s.BytesOutPerPlayerPerSec /= float64(s.Players)
	}
	return s
}

// WriteText writes the summary for a reader, one line per figure.
func (s Summary) WriteText(w io.Writer) error {
	acked := 0.0
	if s.InputsSent > 0 {
		acked = 100 * float64(s.InputsAcked) / float64(s.InputsSent)
	}
	cpu := s.CPUUser + s.CPUSys
	var b strings.Builder
	fmt.Fprintf(&b, "players     %d welcomed, %d refused, %d dropped\n", s.Players, total(s.Refused), total(s.Dropped))
	fmt.Fprintf(&b, "inputs      %d sent, %d acknowledged (%.2f%%)\n", s.InputsSent, s.InputsAcked, acked)
	fmt.Fprintf(&b, "round trip  p50 %v, p99 %v, max %v\n", ms(s.RTTp50), ms(s.RTTp99), ms(s.RTTMax))
	fmt.Fprintf(&b, "bytes       %.0f in, %.0f out per player per second (%d in, %d out in all)\n",
		s.BytesInPerPlayerPerSec, s.BytesOutPerPlayerPerSec, s.BytesIn, s.BytesOut)
	fmt.Fprintf(&b, "time        walked %v, whole run %v\n", ms(s.Walked), ms(s.Duration))
	fmt.Fprintf(&b, "own cpu     %v user, %v sys (%.0f%% of one core)\n", ms(s.CPUUser), ms(s.CPUSys), 100*cpu.Seconds()/s.Duration.Seconds())
	if v := s.Server; v != nil {
		fmt.Fprintf(&b, "server      %d ticks, tick p50 <= %s, p99 <= %s; cpu %v (%.0f%% of one core), rss %.0f MB at the walk's end\n",
			v.Ticks, bound(v.TickP50), bound(v.TickP99), ms(v.CPU), 100*v.CPUShare, v.RSS/(1<<20))
	}
	if s.ServerErr != "" {
		fmt.Fprintf(&b, "server      no figures: %s\n", s.ServerErr)
	}
	writeReasons(&b, "refused", s.Refused)
	writeReasons(&b, "dropped", s.Dropped)
	if s.Undecodable > 0 {
		fmt.Fprintf(&b, "skipped     %d frames that did not decode\n", s.Undecodable)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeReasons writes one line per reason, the most frequent first.
func writeReasons(b *strings.Builder, what string, reasons map[string]int) {
	keys := slices.SortedFunc(maps.Keys(reasons), func(a, b string) int {
		if reasons[a] != reasons[b] {
			return reasons[b] - reasons[a]
		}
		return strings.Compare(a, b)
	})
	for _, k := range keys {
		fmt.Fprintf(b, "%-11s %d x %s\n", what, reasons[k], k)
	}
}

// total is the number of connections counted over all reasons.
func total(reasons map[string]int) int {
	n := 0
	for _, v := range reasons {
		n += v
	}
	return n
}

// bound writes a histogram bucket's upper bound, in seconds, for reading.
func bound(secs float64) string {
	switch {
	case math.IsInf(secs, 1):
		return "+Inf"
	case math.IsNaN(secs):
		return "? (no tick)"
	}
	return time.Duration(secs * float64(time.Second)).String()
}

// ms rounds d for reading: to 0.1 ms.
func ms(d time.Duration) time.Duration { return d.Round(100 * time.Microsecond) }

// jsonSummary is the JSON form of a Summary: times in milliseconds.
type jsonSummary struct {
	Players             int            `json:"players"`
	Refused             map[string]int `json:"refused"`
	Dropped             map[string]int `json:"dropped"`
	InputsSent          uint64         `json:"inputs_sent"`
	InputsAcked         uint64         `json:"inputs_acked"`
	RTTp50              float64        `json:"rtt_p50_ms"`
	RTTp99              float64        `json:"rtt_p99_ms"`
	RTTMax              float64        `json:"rtt_max_ms"`
	BytesIn             int64          `json:"bytes_in"`
	BytesOut            int64          `json:"bytes_out"`
	BytesInPerPlayerSec float64        `json:"bytes_in_per_player_per_sec"`
	BytesOutPerPlayerS  float64        `json:"bytes_out_per_player_per_sec"`
	Pongs               int64          `json:"pongs"`
	Undecodable         int64          `json:"undecodable"`
	Walked              float64        `json:"walked_ms"`
	Duration            float64        `json:"duration_ms"`
	CPUUser             float64        `json:"cpu_user_ms"`
	CPUSys              float64        `json:"cpu_sys_ms"`
	Server              *jsonServer    `json:"server,omitempty"`
	ServerErr           string         `json:"server_error,omitempty"`
}

// jsonServer is the JSON form of a ServerSide: tick bounds in
// milliseconds (null beyond the last bucket).
type jsonServer struct {
	Ticks    uint64   `json:"ticks"`
	TickP50  *float64 `json:"tick_p50_ms_at_most"`
	TickP99  *float64 `json:"tick_p99_ms_at_most"`
	CPU      float64  `json:"cpu_ms"`
	CPUShare float64  `json:"cpu_share_of_a_core"`
	RSS      float64  `json:"rss_bytes"`
}

// WriteJSON writes the summary as one JSON object on one line.
func (s Summary) WriteJSON(w io.Writer) error {
	msf := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	var server *jsonServer
	if v := s.Server; v != nil {
		boundMS := func(secs float64) *float64 {
			if math.IsInf(secs, 1) || math.IsNaN(secs) {
				return nil
			}
			v := secs * 1000
			return &v
		}
		server = &jsonServer{Ticks: v.Ticks, TickP50: boundMS(v.TickP50), TickP99: boundMS(v.TickP99), CPU: msf(v.CPU), CPUShare: v.CPUShare, RSS: v.RSS}
	}
	return json.NewEncoder(w).Encode(jsonSummary{
		Server: server, ServerErr: s.ServerErr,
		Players: s.Players, Refused: s.Refused, Dropped: s.Dropped,
		InputsSent: s.InputsSent, InputsAcked: s.InputsAcked,
		RTTp50: msf(s.RTTp50), RTTp99: msf(s.RTTp99), RTTMax: msf(s.RTTMax),
		BytesIn: s.BytesIn, BytesOut: s.BytesOut,
		BytesInPerPlayerSec: s.BytesInPerPlayerPerSec, BytesOutPerPlayerS: s.BytesOutPerPlayerPerSec,
		Pongs: s.Pongs, Undecodable: s.Undecodable,
		Walked: msf(s.Walked), Duration: msf(s.Duration), CPUUser: msf(s.CPUUser), CPUSys: msf(s.CPUSys),
	})
}
