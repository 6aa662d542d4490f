package link

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// A trace is a network that changes over time: time-stamped changes of
// each direction's one-way delay, jitter and loss, and stalls, that a
// Link follows on any clock (see Link.Follow). It is a small text file,
// documented in docs/traces.md:
//
//	gridlag-trace 1
//	# Where the figures come from, in comments.
//	name   wifi-scan
//	title  Wi-Fi with a background scan every 120 s
//	length 120s
//	repeat
//	at 0s   both delay 3ms jitter 4ms loss 0%
//	at 60s  both stall 100ms "background scan"
//
// Figures are one way, as Preset states them: a message sent while a
// step's delay D and jitter J hold takes D plus 0 to J to cross (the
// -jitter flag's meaning), so the round trip is the delay up plus the
// delay down. up is client to server, down server to client, both is
// the two. loss is the probability that a message is lost and sent again
// as TCP does (see Line.SetLoss); a stall holds everything on the way
// for its length, then releases it at once (see Line.Stall). A setting a
// step does not name keeps its value; the steps at 0s set every one of
// them both ways. After length the trace starts again if it says
// repeat; otherwise the last values hold.

// The limits of a trace: what ParseTrace refuses beyond them.
const (
	// MaxTraceBytes is the largest trace file.
	MaxTraceBytes = 64 << 10
	// MaxTraceLines is the most lines a trace has, comments included.
	MaxTraceLines = 2000
	// MaxTraceLength is the longest trace.
	MaxTraceLength = time.Hour
	// MaxTraceDelay is the largest one-way delay, and the largest jitter,
	// of a step: the two ways' delays together are at most MaxRTT, the
	// latency slider's range.
	MaxTraceDelay = MaxRTT / 2
	// MinRepeatLength is the shortest trace that repeats.
	MinRepeatLength = time.Second
	// MaxTraceStall is the longest stall.
	MaxTraceStall = 30 * time.Second
	// MaxTraceName is the longest name and MaxTraceLabel the longest
	// label of a step, in characters; MaxTraceTitle the longest title.
	MaxTraceName  = 32
	MaxTraceLabel = 32
	MaxTraceTitle = 80
)

// traceMagic is a trace's first line: its format and version.
const traceMagic = "gridlag-trace 1"

// Dir is which way of a link a trace step changes.
type Dir uint8

// The directions.
const (
	DirUp   Dir = 1 << iota // client to server
	DirDown                 // server to client
	DirBoth = DirUp | DirDown
)

// String names the direction as a trace writes it.
func (d Dir) String() string {
	switch d {
	case DirUp:
		return "up"
	case DirDown:
		return "down"
	case DirBoth:
		return "both"
	}
	return fmt.Sprintf("Dir(%d)", uint8(d))
}

// Setting is a bit set of what a step sets.
type Setting uint8

// The settings.
const (
	SetDelay Setting = 1 << iota
	SetJitter
	SetLoss
	SetStall
	setAll = SetDelay | SetJitter | SetLoss
)

// Step is one line of a trace: at At since the trace's start (or its
// repeat's), the directions Dir get the settings Set.
type Step struct {
	At     time.Duration
	Dir    Dir
	Set    Setting
	Delay  time.Duration // one way; with SetDelay
	Jitter time.Duration // 0 to Jitter more per message; with SetJitter
	Loss   float64       // 0 to 1; with SetLoss
	Stall  time.Duration // with SetStall
	// Label names the step for the net graph; "" for none.
	Label string
	// Line is the step's line in the file.
	Line int
}

// Trace is a parsed trace file.
type Trace struct {
	Name   string
	Title  string
	Length time.Duration
	Repeat bool
	// Steps are in the order of the file, their times never going back.
	Steps []Step
	// Text is the file itself, for a recording to carry.
	Text string
}

// Says returns the step's settings as a trace line writes them, without
// the time: "both delay 20ms jitter 5ms loss 1%", "up stall 200ms".
func (s Step) Says() string {
	var b strings.Builder
	b.WriteString(s.Dir.String())
	if s.Set&SetDelay != 0 {
		fmt.Fprintf(&b, " delay %v", s.Delay)
	}
	if s.Set&SetJitter != 0 {
		fmt.Fprintf(&b, " jitter %v", s.Jitter)
	}
	if s.Set&SetLoss != 0 {
		fmt.Fprintf(&b, " loss %s%%", strconv.FormatFloat(100*s.Loss, 'g', 4, 64))
	}
	if s.Set&SetStall != 0 {
		fmt.Fprintf(&b, " stall %v", s.Stall)
	}
	return b.String()
}

// Name returns the step's label, or what it sets when it has none.
func (s Step) Name() string {
	if s.Label != "" {
		return s.Label
	}
	return s.Says()
}

// ReadTrace reads a trace from r: at most MaxTraceBytes, refusing more
// without reading on.
func ReadTrace(r io.Reader) (*Trace, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxTraceBytes+1))
	if err != nil {
		return nil, err
	}
	return ParseTrace(data)
}

// traceError is an error at a line of a trace.
func traceError(line int, format string, args ...any) error {
	return fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, args...))
}

// ErrNotTrace says a file is not a trace at all: its first line is not
// a trace's. Nothing of such a file is quoted in an error.
var ErrNotTrace = errors.New(`not a gridlag trace: a trace's first line is "` + traceMagic + `" (see docs/traces.md)`)

// ParseTrace parses a trace file. It refuses, with the line's number, a
// file that is not a trace, one beyond the limits (MaxTraceBytes,
// MaxTraceLines, MaxTraceLength, MaxTraceDelay, MaxTraceStall), a word
// it does not know, a value out of range, a time that goes back, or a
// start that does not set every setting both ways. It never panics.
func ParseTrace(data []byte) (*Trace, error) {
	if len(data) > MaxTraceBytes {
		return nil, fmt.Errorf("more than %d bytes: a trace is at most %d KiB", MaxTraceBytes, MaxTraceBytes>>10)
	}
	text := string(data)
	first, _, _ := strings.Cut(text, "\n")
	first = strings.TrimSuffix(first, "\r")
	if first != traceMagic {
		if v, ok := strings.CutPrefix(first, "gridlag-trace "); ok && utf8.ValidString(v) && len(v) <= 8 && printable(v) {
			return nil, fmt.Errorf("line 1: gridlag-trace version %q: this gridlag reads version 1", v)
		}
		return nil, ErrNotTrace
	}
	p := traceParser{t: &Trace{Text: text}}
	lines := strings.Split(text, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1] // the file's last newline ends a line, it starts none
	}
	if len(lines) > MaxTraceLines {
		return nil, fmt.Errorf("%d lines: a trace has at most %d", len(lines), MaxTraceLines)
	}
	for i, raw := range lines[1:] {
		n := i + 2
		line := strings.TrimSuffix(raw, "\r")
		if !utf8.ValidString(line) {
			return nil, traceError(n, "not UTF-8 text")
		}
		if !printable(strings.ReplaceAll(line, "\t", " ")) {
			return nil, traceError(n, "a control character: a trace is plain text")
		}
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := p.line(n, line); err != nil {
			return nil, err
		}
	}
	if err := p.end(len(lines)); err != nil {
		return nil, err
	}
	return p.t, nil
}

// printable reports whether s holds no control character.
func printable(s string) bool {
	for _, r := range s {
		if unicode.IsControl(r) || r == utf8.RuneError {
			return false
		}
	}
	return true
}

// traceParser is a trace being parsed.
type traceParser struct {
	t       *Trace
	seen    map[string]int // header keywords and the line each came on
	started bool           // a step came: the header is over
	// set is what the steps at 0s set of each way (up, down).
	set [2]Setting
	// at is the time of the last step, and dirs the directions steps at
	// that time named, with the line of each.
	at      time.Duration
	dirs    Dir
	dirLine [2]int
}

// line parses one line that is not blank nor a comment.
func (p *traceParser) line(n int, line string) error {
	word, rest := line, ""
	if i := strings.IndexAny(line, " \t"); i >= 0 {
		word, rest = line[:i], strings.TrimSpace(line[i+1:])
	}
	switch word {
	case "at":
		p.started = true
		return p.step(n, rest)
	case "name", "title", "length", "repeat":
		if p.started {
			return traceError(n, "%s comes after the first step: the header (name, title, length, repeat) goes first", word)
		}
		if p.seen == nil {
			p.seen = map[string]int{}
		}
		if prev, ok := p.seen[word]; ok {
			return traceError(n, "a second %s (the first is on line %d)", word, prev)
		}
		p.seen[word] = n
		return p.header(n, word, rest)
	}
	return traceError(n, "%s is not a trace line: a line is a comment (#), name, title, length, repeat or at", quoteWord(word))
}

// header parses a header line's value.
func (p *traceParser) header(n int, word, v string) error {
	switch word {
	case "name":
		if v == "" || len(v) > MaxTraceName || strings.Trim(v, "abcdefghijklmnopqrstuvwxyz0123456789-") != "" || v[0] == '-' {
			return traceError(n, "a name is 1 to %d lower-case letters, digits and dashes, starting with a letter or digit", MaxTraceName)
		}
		p.t.Name = v
	case "title":
		if v == "" || utf8.RuneCountInString(v) > MaxTraceTitle {
			return traceError(n, "a title is 1 to %d characters", MaxTraceTitle)
		}
		p.t.Title = v
	case "length":
		d, err := traceDuration(v)
		if err != nil {
			return traceError(n, "length: %v", err)
		}
		if d <= 0 || d > MaxTraceLength {
			return traceError(n, "length %v: a trace lasts more than 0s and at most %v", d, MaxTraceLength)
		}
		p.t.Length = d
	case "repeat":
		if v != "" {
			return traceError(n, "repeat takes nothing after it")
		}
		p.t.Repeat = true
	}
	return nil
}

// step parses a step: "TIME DIR SETTING VALUE ... [\"LABEL\"]".
func (p *traceParser) step(n int, rest string) error {
	if p.t.Length == 0 {
		return traceError(n, "a step before the length: the header (name, title, length) goes first")
	}
	var s Step
	s.Line = n
	if i := strings.IndexByte(rest, '"'); i >= 0 {
		label := rest[i+1:]
		rest = rest[:i]
		if !strings.HasSuffix(label, `"`) || strings.Count(label, `"`) != 1 {
			return traceError(n, `a label is one quoted text at the end of the line: "like this"`)
		}
		label = strings.TrimSuffix(label, `"`)
		if strings.TrimSpace(label) == "" || utf8.RuneCountInString(label) > MaxTraceLabel {
			return traceError(n, "a label is 1 to %d characters", MaxTraceLabel)
		}
		s.Label = label
	}
	f := strings.Fields(rest)
	if len(f) < 2 {
		return traceError(n, "a step is: at TIME up|down|both SETTING VALUE ...")
	}
	at, err := traceDuration(f[0])
	if err != nil {
		return traceError(n, "time: %v", err)
	}
	if at >= p.t.Length {
		return traceError(n, "at %v is not before the trace's length, %v", at, p.t.Length)
	}
	s.At = at
	switch f[1] {
	case "up":
		s.Dir = DirUp
	case "down":
		s.Dir = DirDown
	case "both":
		s.Dir = DirBoth
	default:
		return traceError(n, "%s is no direction: up (client to server), down (server to client) or both", quoteWord(f[1]))
	}
	f = f[2:]
	if len(f) == 0 {
		return traceError(n, "the step sets nothing: give delay, jitter, loss or stall")
	}
	for len(f) > 0 {
		if len(f) < 2 {
			return traceError(n, "%s needs a value", quoteWord(f[0]))
		}
		key, v := f[0], f[1]
		f = f[2:]
		var bit Setting
		switch key {
		case "delay":
			bit = SetDelay
		case "jitter":
			bit = SetJitter
		case "loss":
			bit = SetLoss
		case "stall":
			bit = SetStall
		default:
			return traceError(n, "%s is not a setting: delay, jitter, loss or stall", quoteWord(key))
		}
		if s.Set&bit != 0 {
			return traceError(n, "%s twice", key)
		}
		s.Set |= bit
		if bit == SetLoss {
			if s.Loss, err = traceLoss(v); err != nil {
				return traceError(n, "loss: %v", err)
			}
			continue
		}
		d, err := traceDuration(v)
		if err != nil {
			return traceError(n, "%s: %v", key, err)
		}
		switch bit {
		case SetDelay, SetJitter:
			if d > MaxTraceDelay {
				return traceError(n, "%s %v: at most %v one way (the two ways together at most the latency slider's %v)", key, d, MaxTraceDelay, MaxRTT)
			}
			if bit == SetDelay {
				s.Delay = d
			} else {
				s.Jitter = d
			}
		case SetStall:
			if d <= 0 || d > MaxTraceStall {
				return traceError(n, "stall %v: more than 0s and at most %v", d, MaxTraceStall)
			}
			s.Stall = d
		}
	}
	if len(p.t.Steps) == 0 && at != 0 {
		return traceError(n, "the first step is at %v: a trace starts at 0s, setting delay, jitter and loss both ways", at)
	}
	if len(p.t.Steps) > 0 {
		if at < p.at {
			return traceError(n, "at %v comes before the step above it, at %v: times only go forward", at, p.at)
		}
		if at > p.at {
			p.dirs = 0
		}
	}
	for i, d := range []Dir{DirUp, DirDown} {
		if s.Dir&d == 0 {
			continue
		}
		if p.dirs&d != 0 {
			return traceError(n, "%v is changed at %v already, on line %d: one line a direction a time", d, at, p.dirLine[i])
		}
		p.dirLine[i] = n
		if at == 0 {
			p.set[i] |= s.Set
		}
	}
	p.dirs |= s.Dir
	p.at = at
	p.t.Steps = append(p.t.Steps, s)
	return nil
}

// end checks the trace as a whole once its last line, n, is read.
func (p *traceParser) end(n int) error {
	for _, w := range []string{"name", "title", "length"} {
		if _, ok := p.seen[w]; !ok {
			return traceError(n, "the trace has no %s: its header has a name, a title and a length", w)
		}
	}
	if len(p.t.Steps) == 0 {
		return traceError(n, "the trace has no step: at 0s it sets delay, jitter and loss both ways")
	}
	if p.t.Repeat && p.t.Length < MinRepeatLength {
		return traceError(p.seen["length"], "length %v: a trace that repeats lasts at least %v", p.t.Length, MinRepeatLength)
	}
	for i, d := range []Dir{DirUp, DirDown} {
		if missing := setAll &^ p.set[i]; missing != 0 {
			return traceError(p.t.Steps[0].Line, "the start (at 0s) does not set %s %v: it sets delay, jitter and loss both ways", settingNames(missing), d)
		}
	}
	return nil
}

// settingNames names the settings of s: "jitter and loss".
func settingNames(s Setting) string {
	var names []string
	for _, x := range []struct {
		bit  Setting
		name string
	}{{SetDelay, "delay"}, {SetJitter, "jitter"}, {SetLoss, "loss"}, {SetStall, "stall"}} {
		if s&x.bit != 0 {
			names = append(names, x.name)
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// traceDuration reads a duration of a trace: Go's form with a unit
// ("250ms", "1.5s", "2m"), not negative.
func traceDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil || strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
		return 0, fmt.Errorf("%s is not a duration such as 250ms or 1.5s", quoteWord(s))
	}
	if d < 0 {
		return 0, fmt.Errorf("%v is negative", d)
	}
	return d, nil
}

// traceLoss reads a loss: a percentage from 0% to 100%.
func traceLoss(s string) (float64, error) {
	pct, ok := strings.CutSuffix(s, "%")
	if !ok {
		return 0, fmt.Errorf("%s is not a percentage such as 2%% or 0.5%%", quoteWord(s))
	}
	p, err := strconv.ParseFloat(pct, 64)
	if err != nil || math.IsNaN(p) || strings.ContainsAny(pct, "xXpPeEiInN_") {
		return 0, fmt.Errorf("%s is not a percentage such as 2%% or 0.5%%", quoteWord(s))
	}
	if p < 0 || p > 100 {
		return 0, fmt.Errorf("%s%%: from 0%% to 100%%", strconv.FormatFloat(p, 'g', 4, 64))
	}
	return p / 100, nil
}

// quoteWord quotes a word of a trace for an error, cut to 16 characters.
func quoteWord(w string) string {
	if utf8.RuneCountInString(w) > 16 {
		r := []rune(w)
		return strconv.Quote(string(r[:16])) + "..."
	}
	return strconv.Quote(w)
}
