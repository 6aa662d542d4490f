package remote

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/transform"
)

// filterReads runs reads, one after the other, through a new filter and
// returns what it passed for each.
func filterReads(reads ...string) []string {
	var f inputFilter
	out := make([]string, len(reads))
	for i, r := range reads {
		out[i] = string(f.filter(nil, []byte(r)))
	}
	return out
}

// win32Bytes is s sent as win32-input-mode keys, a byte a key, as some
// terminals send their mouse reports.
func win32Bytes(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		fmt.Fprintf(&b, "\x1b[0;0;%d;1;0;1_", c)
	}
	return b.String()
}

// TestFilterPassesWhatATerminalSends: keys, characters, arrows with their
// modifiers, mouse reports, kitty's and win32-input-mode's keys, Alt and
// a key, pass as they came, a character or a sequence cut by the end of a
// read whole with the read that completes it.
func TestFilterPassesWhatATerminalSends(t *testing.T) {
	for _, in := range []string{
		"jjjq", "héllo wörld ✓ 𝄞", "\x1b[A\x1b[1;5C\x1bOB", "\x1b[<0;12;7M\x1b[<0;12;7m", "\x1b[97;5u",
		"\x1b[65;30;97;1;0;1_", "\x1bx", "\x1b\x1b[A", "\x1b[200~paste\x1b[201~", "\x1b[3~", "\x1b[27;5;106~", "\r\t\x7f\x03",
		"\x1b[I", "\x1bOP", "\xef\xbf\xbd", // U+FFFD itself is a character
		win32Bytes("\x1b[<0;12;7M"), // a mouse report some terminals send as keys
	} {
		if got := filterReads(in); got[0] != in {
			t.Errorf("%q passed as %q", in, got[0])
		}
	}
	cuts := []struct {
		reads []string
		want  []string
	}{
		{[]string{"a\xc3", "\xa9b"}, []string{"a", "\xc3\xa9b"}},
		{[]string{"\xf0\x9d", "\x84", "\x9e"}, []string{"", "", "\xf0\x9d\x84\x9e"}},
		{[]string{"\x1b[1;", "5A"}, []string{"", "\x1b[1;5A"}},
		{[]string{"\x1b[<0;1", "2;7M"}, []string{"", "\x1b[<0;12;7M"}},
		// An Escape alone at the end of a read goes at once; the rest of
		// a sequence it began goes when it comes.
		{[]string{"\x1b", "[A"}, []string{"\x1b", "[A"}},
		{[]string{"j\x1b", "x"}, []string{"j\x1b", "x"}},
	}
	for _, c := range cuts {
		if got := filterReads(c.reads...); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("reads %q passed as %q, want %q", c.reads, got, c.want)
		}
	}
}

// TestFilterDropsWhatHangsTcell: bytes that are not UTF-8, a sequence
// past maxSequence, the strings a terminal sends only when asked, key
// releases; a repeat count above maxRepeat is cut to it; a character
// beyond ASCII ends a sequence, as in tcell.
func TestFilterDropsWhatHangsTcell(t *testing.T) {
	long := "\x1b[" + strings.Repeat("1;", 100) + "A"
	for _, c := range []struct{ in, want string }{
		{"\xff", ""},
		{"\xff\xfe\xfd", ""},
		{"a\xffb", "ab"},
		{"\xc3j", "j"},
		{"\xed\xa0\x80x", "x"}, // a surrogate
		{"\xc0\xafx", "x"},     // an overlong '/'
		{long + "j", "j"},
		{long + "\x1b[B", "\x1b[B"},
		{"\x1b]52;c;aGVsbG8=\x07j", "j"},
		{"\x1b]0;title\x1b\\j", "j"},
		{"\x1bPq#0;2;0;0;0\x1b\\j", "j"},
		{"\x1b_apc\x1b\\j", "j"},
		{"\x1b_apc\x1b\x1b\\j\x07k", "k"}, // ESC ESC \ is no end, as in tcell
		{"\x1b[65;30;65;1;0;2000000000_", "\x1b[65;30;65;1;0;4_"},
		{"\x1b[65;;30;65;1;0;99_", "\x1b[65;30;65;1;0;4_"}, // tcell skips an empty field
		{"\x1b[65;30;65;0;0;1_", ""},                       // a release
		{"\x1b[0;0;106;1;0;9_", "\x1b[0;0;106;1;0;1_"},     // a byte sent as a key
		{win32Bytes("\x1b[" + strings.Repeat("1;", 100) + "Aj"), win32Bytes("j")},
		{win32Bytes("\x1b]52;c;aGk=\x07j"), win32Bytes("j")},
		{win32Bytes("\x1b[0;0;106;1;0;1_"), ""}, // a key sent as keys: dropped
		{"\x1b[1;2é", "é"},
		{"\x1b]title é", "é"},
		{"\x1b[1;\x03A", "A"}, // a control in a sequence: both dropped
	} {
		if got := filterReads(c.in); got[0] != c.want {
			t.Errorf("%q passed as %q, want %q", c.in, got[0], c.want)
		}
	}
	// A string that never ends holds nothing, however long.
	var f inputFilter
	f.filter(nil, []byte("\x1b]52;c;"))
	for range 1000 {
		if out := f.filter(nil, bytes.Repeat([]byte("A"), 4096)); len(out) > 0 || len(f.held) > 0 {
			t.Fatalf("a string's content passed (%d bytes) or was held (%d)", len(out), len(f.held))
		}
	}
	if out := f.filter(nil, []byte("\x07j")); string(out) != "j" {
		t.Errorf("after the string's end, %q passed, want %q", out, "j")
	}
}

// FuzzInputFilter: whatever a client sends, in reads of any sizes, what
// the filter passes is UTF-8 that tcell's decoder takes whole (the loop
// of tScreen.scanInput ends), no sequence it passes is longer than
// maxSequence, and it holds at most one sequence.
func FuzzInputFilter(f *testing.F) {
	for _, s := range []string{"\xff", "\xff\xfe\xfd", "\xc3", "\xc3j", "\x1b[", "\x1b]52;c;", "\x1b[65;0;65;1;0;2000000000_", "\x1b\x1b[<0;1;1M"} {
		f.Add([]byte(s), uint8(3))
	}
	f.Fuzz(func(t *testing.T, in []byte, cut uint8) {
		var fl inputFilter
		var out []byte
		step := int(cut%16) + 1
		for i := 0; i < len(in); i += step {
			out = fl.filter(out, in[i:min(i+step, len(in))])
			if len(fl.held) > maxSequence+1 {
				t.Fatalf("holds %d bytes", len(fl.held))
			}
		}
		if !utf8.Valid(out) {
			t.Fatalf("passed %q: not UTF-8", out)
		}
		dst := make([]byte, 8)
		for src := out; len(src) > 0; {
			nDst, nSrc, err := encoding.UTF8Validator.Transform(dst, src, false)
			if nSrc == 0 && err != transform.ErrShortSrc {
				t.Fatalf("tcell's decoder takes nothing of %q: %v", src, err)
			}
			_ = nDst
			src = src[nSrc:]
			if err == transform.ErrShortSrc {
				t.Fatalf("tcell's decoder waits for more after %q", src)
			}
		}
		for i := bytes.Index(out, []byte("\x1b[")); i >= 0; {
			j := i + 2
			for j < len(out) && out[j] >= 0x20 && out[j] <= 0x3f {
				j++
			}
			if j-i > maxSequence+1 {
				t.Fatalf("passed a sequence of %d bytes: %q", j-i, out[i:j])
			}
			next := bytes.Index(out[j:], []byte("\x1b["))
			if next < 0 {
				break
			}
			i = j + next
		}
	})
}
