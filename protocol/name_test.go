package protocol_test

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"gridlag/protocol"
)

func TestSanitizeName(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"ada", "ada"},
		{"Ada Lovelace", "Ada Lovelace"},
		{"\x1b[31mred\x1b[0m", "[31mred[0m"},       // SGR colour
		{"\x1b[2J\x1b[Hx", "[2J[Hx"},               // clear screen, cursor home
		{"\x1b]0;pwned\x07title", "]0;pwnedtitle"}, // OSC window title, BEL
		{"\x1b]52;c;aGk=\x1b\\", "]52;c;aGk=\\"},   // OSC 52 clipboard write
		{"\u009b31mc1", "31mc1"},                   // C1 CSI
		{"\u009d0;x\u009c", "0;x"},                 // C1 OSC and ST
		{"a\x00b\x7fc\x08d", "abcd"},               // NUL, DEL, backspace
		{"  two \t\n  words \r", "two words"},      // white space folded and trimmed
		{"a\u2028b\u00a0c\u3000d", "a b c d"},      // Unicode spaces
		{"a\u202eb\u2066c", "abc"},                 // bidi override and isolate
		{"a\u200bb\u200dc\ufeffd\u00ade", "abcde"}, // zero width, joiner, BOM, soft hyphen
		{"bad\xff\xfeutf8", "badutf8"},
		{"rep\ufffdlace", "replace"},
		{"\U000e0041tag", "tag"}, // tag character
		{"\u3164", ""},           // HANGUL FILLER
		{"a\u3164b\uffa0c", "abc"},
		{"\u2800x\u2800", "x"},
		{"a\ufe0f\u034f", "a"},
		{"\u0301\u0308", ""}, // nothing but combining marks
		{" \u0301 \u0308 ", ""},
		{"e\u0301", "e\u0301"},
		{"a\nX", "a X"},
		{"abcdefghijklmnopqrstu", "abcdefghijklmnop"},
		{"ééééééééééééééééé", "éééééééééééééééé"}, // runes, not bytes
		{"fifteen letters x", "fifteen letters"},  // no trailing space at the cut
		{"日本語の名前", "日本語の名前"},
		{"\x1b\x1b", ""},
		{"", ""},
		{"   ", ""},
	} {
		got := protocol.SanitizeName(c.in)
		if got != c.want {
			t.Errorf("SanitizeName(%q) = %q, want %q", c.in, got, c.want)
		}
		checkSafeName(t, c.in, got)
	}
}

// checkSafeName checks the promises of SanitizeName on out, the result for in.
func checkSafeName(t *testing.T, in, out string) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("SanitizeName(%q) = %q: invalid UTF-8", in, out)
	}
	if n := utf8.RuneCountInString(out); n > protocol.MaxNameRunes {
		t.Fatalf("SanitizeName(%q) = %q: %d characters", in, out, n)
	}
	for _, r := range out {
		if r == utf8.RuneError || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || (r != ' ' && unicode.IsSpace(r)) || !unicode.IsPrint(r) && r != ' ' {
			t.Fatalf("SanitizeName(%q) = %q keeps %U", in, out, r)
		}
	}
	// No byte of an escape sequence introducer may survive: ESC, and the
	// UTF-8 of the C1 controls is caught above as unicode.IsControl.
	if strings.ContainsAny(out, "\x1b\x07\x00\r\n") {
		t.Fatalf("SanitizeName(%q) = %q keeps a control byte", in, out)
	}
	if strings.HasPrefix(out, " ") || strings.HasSuffix(out, " ") || strings.Contains(out, "  ") {
		t.Fatalf("SanitizeName(%q) = %q has stray spaces", in, out)
	}
	if again := protocol.SanitizeName(out); again != out {
		t.Fatalf("SanitizeName is not idempotent: %q -> %q -> %q", in, out, again)
	}
	if out != "" {
		if err := protocol.CheckName(out); err != nil {
			t.Fatalf("CheckName(SanitizeName(%q)) = %v, want nil for %q", in, err, out)
		}
		// Every acceptable name fits the wire's 255-byte string.
		if _, err := protocol.Marshal(&protocol.Hello{Version: protocol.Version, Name: out}); err != nil {
			t.Fatalf("Hello with sanitized name %q: %v", out, err)
		}
	}
}

// FuzzSanitizeName checks SanitizeName's promises on any string: the result
// is safe to print in a terminal, short, idempotent and accepted by
// CheckName.
func FuzzSanitizeName(f *testing.F) {
	for _, s := range []string{"ada", "\x1b[31mred", "\u009b2J", " a  b ", "a\u202eb", "\xff", strings.Repeat("😀", 20)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkSafeName(t, s, protocol.SanitizeName(s))
		err := protocol.CheckName(s)
		if err == nil && protocol.SanitizeName(s) != s {
			t.Fatalf("CheckName accepts %q, which SanitizeName changes", s)
		}
		if err != nil && !slices.Contains(nameErrors, err) {
			t.Fatalf("CheckName(%q) = %v, not one of the name errors", s, err)
		}
	})
}

// nameErrors are the errors CheckName may return.
var nameErrors = []error{
	protocol.ErrNameEmpty, protocol.ErrNameLong, protocol.ErrNameUTF8, protocol.ErrNameControl,
	protocol.ErrNameInvisible, protocol.ErrNameSpace, protocol.ErrNameBlank,
}

func TestCheckName(t *testing.T) {
	for _, c := range []struct {
		in   string
		want error // nil: accepted; errAny: refused, whichever reason
	}{
		{"ada", nil},
		{"Ada Lovelace", nil},
		{"bot-1", nil},
		{"日本語", nil},
		{"abcdefghijklmnop", nil}, // 16 characters
		{"éééééééééééééééé", nil}, // 16 characters, 32 bytes
		{"😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀😀", nil}, // 16 characters, 64 bytes
		{"", protocol.ErrNameEmpty},
		{"   ", protocol.ErrNameEmpty},
		{"\t\n", protocol.ErrNameEmpty},
		{"abcdefghijklmnopq", protocol.ErrNameLong},
		{"ééééééééééééééééé", protocol.ErrNameLong},
		{"a\x1bb", protocol.ErrNameControl},
		{"\x1b[2J", protocol.ErrNameControl},
		{"a\u009bb", protocol.ErrNameControl},
		{"a\x00", protocol.ErrNameControl},
		{"a\u202e", protocol.ErrNameInvisible},
		{"\u200b", protocol.ErrNameInvisible},
		{"bad\xff", protocol.ErrNameUTF8},
		{" ada", protocol.ErrNameSpace},
		{"ada ", protocol.ErrNameSpace},
		{"a  b", protocol.ErrNameSpace},
		{"a\tb", errAny},
		// Issue 9: a newline is a control character, not a space problem;
		// names that show as blank are refused for being invisible or for
		// having nothing visible.
		{"a\nX", protocol.ErrNameControl},
		{"ada\r", protocol.ErrNameControl},
		{"a\u0085b", protocol.ErrNameControl},       // NEL, a C1 control and a space
		{"a\u00a0b", protocol.ErrNameSpace},         // no-break space
		{"a\u3000b", protocol.ErrNameSpace},         // ideographic space
		{"rep\ufffdlace", protocol.ErrNameUTF8},     // what invalid bytes decode to
		{"\u3164", protocol.ErrNameInvisible},       // HANGUL FILLER
		{"ada\u3164", protocol.ErrNameInvisible},    // a blank tail
		{"\uffa0", protocol.ErrNameInvisible},       // HALFWIDTH HANGUL FILLER
		{"\u115f\u1160", protocol.ErrNameInvisible}, // HANGUL CHOSEONG and JUNGSEONG FILLER
		{"\u2800", protocol.ErrNameInvisible},       // BRAILLE PATTERN BLANK
		{"a\u200db", protocol.ErrNameInvisible},     // zero-width joiner
		{"a\u2060b", protocol.ErrNameInvisible},     // word joiner
		{"a\u034fb", protocol.ErrNameInvisible},     // combining grapheme joiner
		{"a\ufe0f", protocol.ErrNameInvisible},      // variation selector
		{"a\U000e0100", protocol.ErrNameInvisible},  // variation selector supplement
		{"a\U0010fffe", protocol.ErrNameInvisible},  // noncharacter
		{"\u0301", protocol.ErrNameBlank},           // a combining mark alone
		{"\u0301\u0308\u20dd", protocol.ErrNameBlank},
		{"\u0301 \u0308", protocol.ErrNameBlank},
		{"e\u0301", nil}, // a mark on a letter is fine
		{"\u0301e", nil},
		{"bot", nil}, // CheckName takes bots' names too: see names.CheckPlayer
	} {
		err := protocol.CheckName(c.in)
		switch {
		case c.want == nil && err != nil:
			t.Errorf("CheckName(%q) = %v, want it accepted", c.in, err)
		case c.want == errAny && err == nil:
			t.Errorf("CheckName(%q) accepted it, want it refused", c.in)
		case c.want != nil && c.want != errAny && !errors.Is(err, c.want):
			t.Errorf("CheckName(%q) = %v, want %v", c.in, err, c.want)
		}
	}
}

// errAny stands for "any error" in TestCheckName.
var errAny = errors.New("any error")

func TestPrintable(t *testing.T) {
	cases := map[string]string{
		"player quit":                "player quit",
		"\x1b[2Jwiped\x1b]0;t\x07":   "[2Jwiped]0;t",
		"tab\tand\nnewline":          "tabandnewline",
		"bidi \u202eoverride \u200b": "bidi override ",
		"bad \xff byte":              "bad  byte",
		"日本語 ok":                     "日本語 ok",
	}
	for in, want := range cases {
		if got := protocol.Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestHeavyMarks: a name may stack MaxNameMarks combining marks on one
// character, no more; SanitizeName drops the rest.
func TestHeavyMarks(t *testing.T) {
	ok := []string{"Vi\u1ec7t", "Vie\u0323\u0302t", "\u0915\u093c\u0940\u0902", "e\u0301\u0302\u0303x"}
	for _, n := range ok {
		if err := protocol.CheckName(n); err != nil {
			t.Errorf("CheckName(%q) = %v, want it accepted", n, err)
		}
	}
	zalgo := "z\u0300\u0301\u0302\u0303\u0304a\u0305\u0306\u0307\u0308"
	if err := protocol.CheckName(zalgo); err != protocol.ErrNameMarks {
		t.Errorf("CheckName(%q) = %v, want %v", zalgo, err, protocol.ErrNameMarks)
	}
	if got, want := protocol.SanitizeName(zalgo), "z\u0300\u0301\u0302a\u0305\u0306\u0307"; got != want {
		t.Errorf("SanitizeName(%q) = %q, want %q", zalgo, got, want)
	}
}
