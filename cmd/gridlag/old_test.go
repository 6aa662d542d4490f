package main

import (
	"bytes"
	"flag"
	"io"
	"slices"
	"strings"
	"testing"
)

// parsed is what a command line comes to: the command, its arguments
// and the value of every flag of its set.
func parsed(t *testing.T, args []string) string {
	t.Helper()
	inv, err := parse(args, io.Discard)
	if err != nil {
		t.Fatalf("gridlag %s: %v", strings.Join(args, " "), err)
	}
	var b strings.Builder
	b.WriteString(inv.cmd.name + " " + strings.Join(inv.args, " ") + "\n")
	inv.fs.VisitAll(func(f *flag.Flag) { b.WriteString("-" + f.Name + "=" + f.Value.String() + "\n") })
	return b.String()
}

// example is a form of help old with its placeholders filled in: a
// server, a room, and a flag every command takes.
func example(form string) []string {
	r := strings.NewReplacer("[flags]", "-latency 100ms", "HOST:PORT", "127.0.0.1:7777", "NAME", "kitchen", "ROOM", "3b", "[", "", "]", "")
	return strings.Fields(r.Replace(form))[1:]
}

// TestOldFormsMapToTheirCommands: each old form, the modes as flags,
// comes to the command its new form names: the same command, the same
// arguments, every flag the same. The forms of help old, and more.
func TestOldFormsMapToTheirCommands(t *testing.T) {
	type form struct{ old, now []string }
	var forms []form
	for _, f := range oldForms {
		forms = append(forms, form{example(f.old), example(f.now)})
	}
	for _, f := range []struct{ old, now string }{
		{"", "play"},
		{"-name ada -bots 0 -ssh 127.0.0.1:2222", "play -name ada -bots 0 -ssh 127.0.0.1:2222"},
		{"-latency 500ms -rate 3 -web :8080", "play -rate 3 -latency 500ms -web :8080"},
		{"-connect=127.0.0.1:7777 -room kitchen -name ada", "play -name ada 127.0.0.1:7777 -room kitchen"},
		{"-connect 127.0.0.1:7777 -loss 2%", "play 127.0.0.1:7777 -loss 2%"},
		{"-spectate -room kitchen -connect 127.0.0.1:7777", "watch 127.0.0.1:7777 -room kitchen"},
		{"-connect 127.0.0.1:7777 -spectate=true", "watch 127.0.0.1:7777"},
		{"-lobby -name ada", "lobby -name ada"},
		{"-record game.rec", "play -record game.rec"},
		{"-server", "serve"},
		{"--server -addr :7777 -ssh :2222", "serve -ssh :2222 -addr :7777"},
		{"-server -addr  -ssh :2222", "serve -addr  -ssh :2222"},
		{"-server -web :8080 -rate 30 -max-players 200 -drain 0s", "serve -web :8080 -rate 30 -max-players 200 -drain 0s"},
		{"-server -agones -agones-health 5s", "serve -agones -agones-health 5s"},
		{"-server -ssh :2222 -teach 3b", "teach 3b -ssh :2222"},
		{"-teach=3b -server=true -name hopper -drain 0s", "teach -name hopper 3b -drain 0s"},
	} {
		forms = append(forms, form{strings.Split(f.old, " "), strings.Split(f.now, " ")})
	}
	for _, f := range forms {
		old := f.old
		if !slices.Contains(f.now, "-addr") { // -addr "" keeps its empty value
			old = slices.DeleteFunc(slices.Clone(f.old), func(s string) bool { return s == "" })
		}
		if got, want := parsed(t, old), parsed(t, f.now); got != want {
			t.Errorf("gridlag %s comes to\n%s\ngridlag %s to\n%s", strings.Join(f.old, " "), got, strings.Join(f.now, " "), want)
		}
	}
}

// TestOldFormsRefuseAsTheyDid: the old forms' mistakes are refused as
// they were, by the old forms' words.
func TestOldFormsRefuseAsTheyDid(t *testing.T) {
	checkRefusals(t, []refusal{
		{[]string{"-server", "-connect", "h:1"}, "-server and -connect do not go together"},
		{[]string{"-spectate"}, "-spectate needs -connect HOST:PORT"},
		{[]string{"-connect", "h:1", "-teach", "3b"}, "-teach is for -server"},
		{[]string{"-connect", "h:1", "-lobby", "-spectate"}, "-lobby is for playing; to watch a room, give -spectate -room NAME"},
		{[]string{"-server", "-teach", " 3b"}, `-teach " 3b": `},
		{[]string{"-server", "-lobby"}, "-lobby is a player's"},
		{[]string{"-server=maybe"}, `invalid boolean value "maybe" for -server`},
		{[]string{"-connect"}, "flag needs an argument: -connect"},
		{[]string{"-rate", "3", "--", "x"}, `unexpected argument "x"`},
	})
}

// TestHelpOfOldForms: -help alone is gridlag's help; with a mode, the
// command's.
func TestHelpOfOldForms(t *testing.T) {
	for args, want := range map[string]string{
		"-help":                   "The old forms -server",
		"-rate 3 -h":              "The old forms -server",
		"-server -help":           "Usage: gridlag serve",
		"-connect h:1 -help":      "Usage: gridlag play",
		"-server -teach 3b -help": "Usage: gridlag teach",
	} {
		var out bytes.Buffer
		if err := run(strings.Fields(args), &out); exitCode(err) != 0 || !strings.Contains(out.String(), want) {
			t.Errorf("gridlag %s: %v\n%s\nwant it to say %q", args, err, out.String(), want)
		}
	}
}
