package bot

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"gridlag/client"
)

// Summary is what the bots' clients measured over a run.
type Summary struct {
	// Bots is how many bots connected and played.
	Bots int
	// Duration is how long the run actually took, from its start until
	// the last bot closed.
	Duration time.Duration

	// InputsSent, InputsAcked and Corrections are summed over the bots
	// (client.Stats).
	InputsSent, InputsAcked, Corrections int

	// Resumes is how many times a bot's connection dropped and the bot
	// came back as the same player (client.Stats), summed over the bots.
	Resumes int
	// ZapsSent, TagsMade and TagsSuffered are summed over the bots: zaps
	// fired, zaps the server judged a hit, and times the server said a bot
	// was tagged (client.Stats).
	ZapsSent, TagsMade, TagsSuffered int

	// RTTp50 and RTTp99 are percentiles of every Ping/Pong round trip of
	// every bot, injected latency included; 0 if none was measured.
	RTTp50, RTTp99 time.Duration

	// BytesInPerBotPerSec and BytesOutPerBotPerSec are the bytes a bot
	// read from and wrote to its socket per second of connection, averaged
	// over the bots.
	BytesInPerBotPerSec, BytesOutPerBotPerSec float64

	// Errors lists the bots that failed to connect or were dropped, one
	// line each.
	Errors []string

	deferred int // presses the clients held back for the speed limit
}

// botResult is what one bot brings back.
type botResult struct {
	played    bool // connected and walked
	stats     client.Stats
	in, out   int64
	connected time.Duration // from the handshake to the end
	err       error
}

// summarize folds the bots' results into a Summary.
func summarize(results []botResult, took time.Duration) Summary {
	s := Summary{Duration: took, Errors: []string{}}
	var rtts []time.Duration
	for _, r := range results {
		if r.err != nil {
			s.Errors = append(s.Errors, r.err.Error())
		}
		if !r.played {
			continue
		}
		s.Bots++
		s.InputsSent += r.stats.InputsSent
		s.InputsAcked += r.stats.InputsAcked
		s.Corrections += r.stats.Corrections
		s.Resumes += r.stats.Resumes
		s.ZapsSent += r.stats.ZapsSent
		s.TagsMade += r.stats.Tags
		s.TagsSuffered += r.stats.Tagged
		s.deferred += r.stats.Deferred
		rtts = append(rtts, r.stats.RTTs...)
		if secs := r.connected.Seconds(); secs > 0 {
			s.BytesInPerBotPerSec += float64(r.in) / secs
			s.BytesOutPerBotPerSec += float64(r.out) / secs
		}
	}
	if s.Bots > 0 {
		s.BytesInPerBotPerSec /= float64(s.Bots)
		s.BytesOutPerBotPerSec /= float64(s.Bots)
	}
	slices.Sort(rtts)
	s.RTTp50, s.RTTp99 = percentile(rtts, 50), percentile(rtts, 99)
	return s
}

// percentile returns the p-th percentile of sorted by the nearest-rank
// method, 0 for an empty list.
func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := (p*len(sorted) + 99) / 100 // ceil(p/100 * n)
	return sorted[max(rank, 1)-1]
}

// WriteText writes the summary for a person to read.
func (s Summary) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "bots:         %d for %v\n", s.Bots, s.Duration.Round(time.Millisecond))
	fmt.Fprintf(&b, "inputs:       %d sent, %d acknowledged, %d corrections\n", s.InputsSent, s.InputsAcked, s.Corrections)
	fmt.Fprintf(&b, "resumes:      %d after dropped connections\n", s.Resumes)
	fmt.Fprintf(&b, "zaps:         %d sent, %d tags made, %d tags suffered\n", s.ZapsSent, s.TagsMade, s.TagsSuffered)
	fmt.Fprintf(&b, "round trip:   p50 %v, p99 %v\n", s.RTTp50.Round(100*time.Microsecond), s.RTTp99.Round(100*time.Microsecond))
	fmt.Fprintf(&b, "bytes/bot/s:  %.0f in, %.0f out\n", s.BytesInPerBotPerSec, s.BytesOutPerBotPerSec)
	if len(s.Errors) == 0 {
		b.WriteString("errors:       none\n")
	} else {
		fmt.Fprintf(&b, "errors:       %d\n", len(s.Errors))
		for _, e := range s.Errors {
			fmt.Fprintf(&b, "  %s\n", e)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// summaryJSON is the JSON form of a Summary.
type summaryJSON struct {
	Bots                 int      `json:"bots"`
	DurationMS           float64  `json:"duration_ms"`
	InputsSent           int      `json:"inputs_sent"`
	InputsAcked          int      `json:"inputs_acked"`
	Corrections          int      `json:"corrections"`
	Resumes              int      `json:"resumes"`
	ZapsSent             int      `json:"zaps_sent"`
	TagsMade             int      `json:"tags_made"`
	TagsSuffered         int      `json:"tags_suffered"`
	RTTp50MS             float64  `json:"rtt_p50_ms"`
	RTTp99MS             float64  `json:"rtt_p99_ms"`
	BytesInPerBotPerSec  float64  `json:"bytes_in_per_bot_per_sec"`
	BytesOutPerBotPerSec float64  `json:"bytes_out_per_bot_per_sec"`
	Errors               []string `json:"errors"`
}

// ms is d in milliseconds, to the microsecond.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// WriteJSON writes the summary as one JSON object on one line, with
// snake_case keys; durations are in milliseconds.
func (s Summary) WriteJSON(w io.Writer) error {
	errs := s.Errors
	if errs == nil {
		errs = []string{}
	}
	return json.NewEncoder(w).Encode(summaryJSON{
		Bots:                 s.Bots,
		DurationMS:           ms(s.Duration),
		InputsSent:           s.InputsSent,
		InputsAcked:          s.InputsAcked,
		Corrections:          s.Corrections,
		Resumes:              s.Resumes,
		ZapsSent:             s.ZapsSent,
		TagsMade:             s.TagsMade,
		TagsSuffered:         s.TagsSuffered,
		RTTp50MS:             ms(s.RTTp50),
		RTTp99MS:             ms(s.RTTp99),
		BytesInPerBotPerSec:  s.BytesInPerBotPerSec,
		BytesOutPerBotPerSec: s.BytesOutPerBotPerSec,
		Errors:               errs,
	})
}
