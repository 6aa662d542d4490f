package cli

import (
	"bytes"
	"errors"
	"flag"
	"strings"
	"testing"
	"time"
)

// testValues are testSet's flags' values.
type testValues struct {
	d    time.Duration
	n    int
	size int64
	p    float64
	s    string
	b    bool
}

// testSet is a set with a flag of each kind, and a check between two.
func testSet() (*FlagSet, *testValues) {
	v := &testValues{}
	fs := New("gridlag test")
	fs.Duration(&v.d, "wait", time.Second, DurationRange{Min: time.Millisecond, Max: time.Minute, Unit: time.Millisecond}, "how long")
	fs.Int(&v.n, "n", 3, IntRange{Lo: 1, Hi: 10}, "how many")
	fs.Group("more")
	fs.Size(&v.size, "max", 1<<20, SizeRange{Lo: 1 << 10, Hi: 1 << 30}, "how big")
	fs.Probability(&v.p, "loss", "how lossy")
	fs.StringVar(&v.s, "name", "ada", "who, a `NAME`")
	fs.BoolVar(&v.b, "on", false, "whether")
	fs.Check(func() error {
		if v.b && v.s == "" {
			return errors.New("-on needs -name")
		}
		return nil
	})
	return fs, v
}

// TestValuesRefuseNamingFlagValueAndRange: a value is refused naming
// the flag, the value and what is allowed, as a usage error of the
// command; the first refusal is the one said.
func TestValuesRefuseNamingFlagValueAndRange(t *testing.T) {
	for args, want := range map[string]string{
		"-wait 250":     "-wait 250: a duration needs a unit, e.g. 250ms",
		"-wait soon":    "-wait soon: not a duration, e.g. 250ms or 1.5s",
		"-wait 1.5ms":   "-wait 1.5ms: not a whole number of 1ms",
		"-wait 2m":      "-wait 2m: out of range (1ms to 1m)",
		"-n 0":          "-n 0: out of range (1 to 10)",
		"-n x -wait 2m": "-n x: not a whole number",
		"-max 1":        "-max 1: out of range (1KiB to 1GiB)",
		"-max lots":     "-max lots: not a size, e.g. 64MiB, 500KB or 1048576",
		"-loss 101%":    "-loss 101%: out of range (0 to 1, or 0% to 100%)",
		"-on -name=":    "-on needs -name",
		"-bogus":        "flag provided but not defined: -bogus",
		"-on=maybe":     `invalid boolean value "maybe" for -on`,
	} {
		fs, _ := testSet()
		_, err := fs.Parse(strings.Fields(args))
		var ue *UsageError
		if !errors.As(err, &ue) || ue.Cmd != "gridlag test" || err.Error() != want && !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, want a usage error of gridlag test saying %q", args, err, want)
		}
	}
}

// TestParseTakesFlagsAroundArguments: flags come before or after the
// arguments; a value that looks like an argument is its flag's; "--"
// ends the flags.
func TestParseTakesFlagsAroundArguments(t *testing.T) {
	fs, v := testSet()
	pos, err := fs.Parse([]string{"-n", "4", "host:1", "-name", "bob", "-on", "x", "-wait=5ms", "--", "-n"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(pos, " ") != "host:1 x -n" || v.n != 4 || v.s != "bob" || !v.b || v.d != 5*time.Millisecond {
		t.Errorf("arguments %q, values %+v", pos, *v)
	}
	if !fs.Given("n") || fs.Given("max") {
		t.Error("Given does not say which flags were given")
	}
	if got := strings.Join(fs.Line(), " "); got != "-n 4 host:1 -name bob -on x -wait=5ms -- -n" {
		t.Errorf("Line %q", got)
	}
	if _, err := fs.Parse([]string{"-help"}); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("-help: %v, want flag.ErrHelp", err)
	}
	if name := Undefined(func() error { _, err := fs.Parse([]string{"-rate", "3"}); return err }()); name != "rate" {
		t.Errorf("Undefined: %q, want rate", name)
	}
}

// TestHelpByGroup: -help lists each group under its title, the flags by
// name, what each takes and its default when it is not the zero value.
func TestHelpByGroup(t *testing.T) {
	fs, _ := testSet()
	var b bytes.Buffer
	fs.WriteHelp(&b, nil)
	want := `  -n number
    	how many (a number, 1 to 10) (default 3)
  -wait duration
    	how long (a duration, 1ms to 1m) (default 1s)

More:
  -loss probability
    	how lossy
  -max size
    	how big (a size, 1KiB to 1GiB) (default 1MiB)
  -name NAME
    	who, a NAME (default "ada")
  -on
    	whether
`
	if b.String() != want {
		t.Errorf("help:\n%s\nwant\n%s", b.String(), want)
	}
	b.Reset()
	fs.WriteHelp(&b, func(g string) bool { return g == "" })
	if strings.Contains(b.String(), "More") || !strings.Contains(b.String(), "-wait") {
		t.Errorf("the group \"\" alone:\n%s", b.String())
	}
	b.Reset()
	fs.WriteMarkdown(&b, nil)
	if !strings.Contains(b.String(), "| `-name NAME` | `\"ada\"` | who, a NAME |\n") || !strings.Contains(b.String(), "More:\n\n| flag |") {
		t.Errorf("markdown:\n%s", b.String())
	}
}

// TestShowDurationAndSize: durations, sizes and counts as a person writes
// them, and (durations, sizes) as a flag takes them back.
func TestShowDurationAndSize(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "0", 100 * time.Hour: "100h", 25 * time.Minute: "25m", 1500 * time.Millisecond: "1.5s"} {
		if got := ShowDuration(d); got != want {
			t.Errorf("ShowDuration(%v) = %q, want %q", d, got, want)
		}
	}
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", 3412: "3,412", -1250: "-1,250", 1234567: "1,234,567"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q, want %q", n, got, want)
		}
	}
	for n, want := range map[int64]string{64 << 20: "64MiB", 4 << 30: "4GiB", 1000: "1000B"} {
		if got := ShowSize(n); got != want {
			t.Errorf("ShowSize(%d) = %q, want %q", n, got, want)
		}
		if back, err := ParseSize(want); err != nil || back != n {
			t.Errorf("ParseSize(%q) = %d, %v", want, back, err)
		}
	}
}
