package names

import (
	"testing"

	"gridlag/protocol"
)

// TestKey: names that look alike have one key, however they are
// written; names that do not, do not.
func TestKey(t *testing.T) {
	same := [][]string{
		{"bot-1", "BOT-1", "b\u043et-1", "\uff42\uff4f\uff54-1", "b0t-1", "bot-l", "b\u03bft-1"},
		{"ann", "Ann", "\u0430nn", "\uff41\uff4e\uff4e"},
		{"Ill", "lll", "1ll", "I1l"},
		{"modem", "rnodern"},
		{"Stra\u00dfe", "strasse", "STRASSE"},
		{"jos\u00e9", "jose\u0301"},
	}
	for _, group := range same {
		for _, n := range group[1:] {
			if Key(n) != Key(group[0]) {
				t.Errorf("Key(%q) = %q, Key(%q) = %q: want them alike", n, Key(n), group[0], Key(group[0]))
			}
		}
	}
	differ := [][2]string{{"ann", "anne"}, {"bot-1", "bot-2"}, {"jose", "jos\u00e9"}, {"ada", "ida"}, {"日本", "日本語"}}
	for _, d := range differ {
		if Key(d[0]) == Key(d[1]) {
			t.Errorf("Key(%q) = Key(%q): want them apart", d[0], d[1])
		}
	}
}

// TestCheckPlayer: a name that starts with "bot", or looks like it, in
// any case or script, with no letter after, is a bot's alone; the name's
// form (protocol.CheckName) is checked first.
func TestCheckPlayer(t *testing.T) {
	for _, c := range []struct {
		name string
		bot  bool
		want error
	}{
		{"ada", false, nil},
		{"ada", true, nil},
		{"bot-1", true, nil},
		{"bot", true, nil},
		{"bot-1", false, ErrBot},
		{"bot-12", false, ErrBot},
		{"bot", false, ErrBot},
		{"BOT-1", false, ErrBot},
		{"Bot_7", false, ErrBot},
		{"bot 2", false, ErrBot},
		{"bot1", false, ErrBot},
		{"bot\u0301", false, ErrBot},
		{"b\u043et-1", false, ErrBot},                       // a Cyrillic о
		{"\uff42\uff4f\uff54-1", false, ErrBot},             // fullwidth
		{"b0t-1", false, ErrBot},                            // a zero
		{"B\u039fT", false, ErrBot},                         // a Greek Ο
		{"\U0001d41b\U0001d428\U0001d42d 1", false, ErrBot}, // mathematical bold
		{"b\u00f3t-1", false, ErrBot},                       // an accent
		{"b\u043etanist", false, nil},
		{"botanist", false, nil},
		{"Botond", false, nil},
		{"robot-1", false, nil},
		{"my bot-1", false, nil},
		{"bo", false, nil},
		{"bot\n1", false, protocol.ErrNameControl}, // the form is checked first
		{"bot\u200b", true, protocol.ErrNameInvisible},
		{"", true, protocol.ErrNameEmpty},
	} {
		if err := CheckPlayer(c.name, c.bot); err != c.want {
			t.Errorf("CheckPlayer(%q, bot=%v) = %v, want %v", c.name, c.bot, err, c.want)
		}
	}
}

// FuzzCheckPlayer: for a bot, CheckPlayer is CheckName, whatever the
// string.
func FuzzCheckPlayer(f *testing.F) {
	for _, s := range []string{"ada", "bot-1", "b\u043et-1", "\x1b[31mred", " a  b ", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if bot, err := CheckPlayer(s, true), protocol.CheckName(s); bot != err {
			t.Fatalf("CheckPlayer(%q, bot) = %v, CheckName = %v", s, bot, err)
		}
	})
}
