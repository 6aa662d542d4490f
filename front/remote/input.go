package remote

import (
	"strconv"
	"unicode/utf8"
)

// A remote client's input reaches tcell's input loop only through an
// inputFilter: what a terminal sends, keys, mouse reports, control
// sequences, passes as it is; what no terminal sends, and what tcell
// (v2.13) cannot take, does not:
//
//   - Bytes that are not UTF-8 are dropped. tcell validates its input
//     with x/text's UTF8Validator and loops until that has taken all of
//     it (tScreen.scanInput), but the validator takes nothing at an
//     invalid byte and says ErrInvalidUTF8, which the loop does not stop
//     on: one byte 0xff, or a lone lead byte followed by a key, had the
//     screen's main loop spin for ever, a core busy, and the screen's
//     Fini wait on it for ever, so that the session never ended. A
//     character cut by the end of a read is held until the rest comes.
//   - A control sequence (ESC [ ...) longer than maxSequence is dropped,
//     and the strings a terminal sends only when asked (OSC, DCS, APC,
//     PM, SOS: ESC ] ... BEL or ESC \) are dropped whole: tcell keeps
//     every byte of the one it is reading until its end, so a client
//     that never ends one grew the session's memory without bound. The
//     filter holds no more than one sequence's bytes.
//   - A win32-input-mode key (ESC [ Vk;Sc;Uc;Kd;Cs;Rc _, which tcell
//     asks terminals for) repeats at most maxRepeat times: tcell posts
//     the key as many times as Rc says, up to 2^31, one a blocked send
//     on the event queue, hours of a core and a session that cannot
//     stop meanwhile. Key releases, which tcell ignores, are dropped.
//     The ASCII bytes some terminals send as such keys (their mouse
//     reports encoded twice), which tcell parses on a parser of their
//     own, go through a filter of their own too, and deeper encodings
//     are dropped.
//
// The filter follows tcell's parser (tcell's input.go) closely enough to
// know where each sequence begins and ends; it parses nothing further.
// An Escape key alone at the end of a read goes at once (tcell's own
// timer tells it from the start of a sequence).
type inputFilter struct {
	state filterState
	held  []byte // the sequence being read: ESC, [, its parameters; or a character cut by a read
	// sent says the ESC that began the sequence held went already: it
	// ended a read.
	sent bool
	// nested filters the bytes sent as win32-input-mode keys; made on
	// the first. inner says this filter is one: it drops such keys.
	nested *inputFilter
	inner  bool
}

// filterState is where the filter is in the client's input.
type filterState uint8

const (
	ground    filterState = iota // keys
	escape                       // after ESC
	csi                          // in a control sequence: ESC [ parameters
	csiSkip                      // in a control sequence too long: dropped to its final byte
	str                          // in a string (OSC, DCS, APC, PM, SOS): dropped to its end
	strEscape                    // after ESC in a string
)

// maxSequence bounds the bytes of a control sequence the filter passes:
// the longest a terminal sends (an SGR mouse report, a win32-input-mode
// key, a kitty key with its modifiers and text) is under 40.
const maxSequence = 64

// maxRepeat is the most times a win32-input-mode key may say it repeats:
// a terminal sends a held key as one report per repeat.
const maxRepeat = 4

const (
	esc = 0x1b
	bel = 0x07
)

// filter appends to dst what tcell may read of p, the client's next
// bytes, and returns it.
func (f *inputFilter) filter(dst, p []byte) []byte {
	if f.state == ground && len(f.held) > 0 { // a character cut by the last read
		p = append(f.held, p...)
		f.held = nil
	}
	for len(p) > 0 {
		c := p[0]
		if c < utf8.RuneSelf {
			dst = f.step(dst, c)
			p = p[1:]
			continue
		}
		r, size := utf8.DecodeRune(p)
		switch {
		case r == utf8.RuneError && size == 1 && !utf8.FullRune(p):
			// The start of a character the next read completes.
			dst = f.endSequence(dst)
			f.held = append(f.held[:0], p...)
			return dst
		case r == utf8.RuneError && size == 1:
			// Not UTF-8: dropped.
		default:
			// A character beyond ASCII ends any sequence, as in
			// tcell's parser, and is a key.
			dst = f.endSequence(dst)
			dst = append(dst, p[:size]...)
		}
		p = p[size:]
	}
	return f.endRead(dst)
}

// endRead lets an Escape key alone at the end of a read go now, the
// nested filter's first; what follows it in the next read goes on from
// there.
func (f *inputFilter) endRead(dst []byte) []byte {
	if f.nested != nil {
		dst = f.wrap(dst, f.nested.endRead(nil), false)
	}
	if f.state == escape && !f.sent {
		dst = append(dst, esc)
		f.held, f.sent = f.held[:0], true
	}
	return dst
}

// endSequence drops the sequence being read, if any: a character beyond
// ASCII came. An ESC that began it and did not go yet goes.
func (f *inputFilter) endSequence(dst []byte) []byte {
	if f.state == ground {
		return dst
	}
	f.state, f.held, f.sent = ground, f.held[:0], false
	return dst
}

// step takes one ASCII byte.
func (f *inputFilter) step(dst []byte, c byte) []byte {
	switch f.state {
	case ground:
		if c == esc {
			f.state, f.held, f.sent = escape, append(f.held[:0], esc), false
			return dst
		}
		return append(dst, c)
	case escape:
		switch c {
		case '[':
			f.state, f.held = csi, append(f.held, c)
		case ']', 'P', 'X', '^', '_':
			f.state, f.held, f.sent = str, f.held[:0], false
		case esc:
			// ESC ESC: the first is the Alt of what the second begins.
			dst = append(dst, f.held...)
			f.held, f.sent = append(f.held[:0], esc), false
		default:
			// Alt and a key, or SS2/SS3 and the key after it, which
			// tcell reads from ground.
			dst = append(append(dst, f.held...), c)
			f.state, f.held, f.sent = ground, f.held[:0], false
		}
	case csi:
		switch {
		case c >= 0x20 && c <= 0x3f: // parameters and intermediates
			f.held = append(f.held, c)
			if len(f.held) > maxSequence {
				f.state, f.held, f.sent = csiSkip, f.held[:0], false
			}
		case c >= 0x40: // the final byte (tcell's, to DEL)
			seq := append(f.held, c)
			f.state, f.held = ground, f.held[:0]
			sent := f.sent
			f.sent = false
			if c == '_' {
				return f.win32Key(dst, seq, sent)
			}
			return append(dst, seq...)
		case c == esc:
			// ESC begins the next sequence; this one is dropped.
			f.held, f.sent = append(f.held[:0], esc), false
			f.state = escape
		default:
			// A control in a sequence: tcell drops both.
			f.state, f.held, f.sent = ground, f.held[:0], false
		}
	case csiSkip:
		switch {
		case c >= 0x20 && c <= 0x3f:
		case c == esc:
			f.state, f.held = escape, append(f.held[:0], esc)
		default:
			f.state = ground
		}
	case str:
		switch c {
		case bel:
			f.state = ground
		case esc:
			f.state = strEscape
		}
	case strEscape:
		if c == '\\' || c == bel {
			f.state = ground
		} else {
			f.state = str
		}
	}
	return dst
}

// win32Key passes a win32-input-mode key report, seq (ESC [ ... _, the
// ESC missing if it went already), as tcell would read it: a release
// dropped, a repeat count at most maxRepeat, an ASCII byte encoded as a
// key taken as that byte.
func (f *inputFilter) win32Key(dst, seq []byte, sent bool) []byte {
	start := 2 // after ESC [
	if sent {
		start = 1
	}
	params := seq[start : len(seq)-1]
	if len(params) == 0 || params[0] < '0' || params[0] > '9' {
		return append(dst, seq...) // not a key: tcell ignores it
	}
	// tcell's reading: the fields that are numbers, in order.
	var p []int
	for _, field := range splitParams(params) {
		if n, err := strconv.ParseInt(string(field), 10, 32); err == nil {
			p = append(p, int(n))
		}
	}
	for len(p) < 6 {
		p = append(p, 0)
	}
	switch {
	case p[3] == 0:
		return dst // a key's release
	case p[0] == 0 && p[1] == 0 && p[2] > 0 && p[2] < utf8.RuneSelf:
		if f.inner {
			return dst
		}
		if f.nested == nil {
			f.nested = &inputFilter{inner: true}
		}
		return f.wrap(dst, f.nested.step(nil, byte(p[2])), sent)
	}
	p[5] = min(p[5], maxRepeat)
	if !sent {
		dst = append(dst, esc)
	}
	dst = append(dst, '[')
	for i, n := range p {
		if i > 0 {
			dst = append(dst, ';')
		}
		dst = strconv.AppendInt(dst, int64(n), 10)
	}
	return append(dst, '_')
}

// wrap appends the bytes the nested filter passed, each as the
// win32-input-mode key that carries it (the first without its ESC if
// sent: it went already).
func (f *inputFilter) wrap(dst, bytes []byte, sent bool) []byte {
	for _, b := range bytes {
		if !sent {
			dst = append(dst, esc)
		}
		sent = false
		dst = append(dst, "[0;0;"...)
		dst = strconv.AppendInt(dst, int64(b), 10)
		dst = append(dst, ";1;0;1_"...)
	}
	return dst
}

// splitParams splits a sequence's parameters at ';'.
func splitParams(b []byte) [][]byte {
	var fields [][]byte
	for {
		i := 0
		for i < len(b) && b[i] != ';' {
			i++
		}
		fields = append(fields, b[:i])
		if i == len(b) {
			return fields
		}
		b = b[i+1:]
	}
}
