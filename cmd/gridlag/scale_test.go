package main

import (
	"testing"

	"gridlag/server"
)

// TestScaleFlagsRefuseBadValues: -map-gen and the load generator's flags
// are refused like any other flag, naming the flag, the value and what is
// allowed.
func TestScaleFlagsRefuseBadValues(t *testing.T) {
	checkRefusals(t, []refusal{
		{[]string{"-map-gen", "200"}, "-map-gen 200: not a size WIDTHxHEIGHT, e.g. 200x200"},
		{[]string{"-map-gen", "4x200"}, "-map-gen 4x200: out of range (each side 8 to 1024)"},
		{[]string{"-map-gen", "200x2000"}, "-map-gen 200x2000: out of range (each side 8 to 1024)"},
		{[]string{"-map", "x.map", "-map-gen", "200x200"}, "-map and -map-gen do not go together"},
		{[]string{"load"}, "-connect HOST:PORT is required"},
		{[]string{"load", "-connect", "h:1", "-n", "0"}, "-n 0: out of range (1 to 65534)"},
		{[]string{"load", "-connect", "h:1", "-ramp", "1"}, "-ramp 1: a duration needs a unit"},
		{[]string{"load", "-connect", "h:1", "-move-time", "-1ms"}, "-move-time -1ms: out of range (0 or more)"},
		{[]string{"load", "-connect", "h:1", "-name", "a very long prefix"}, `-name "a very long prefix": the players' names`},
		{[]string{"load", "-connect", "h:1", "-addrs", "127.0.0.9-127.0.0.2"}, "-addrs 127.0.0.9-127.0.0.2: 127.0.0.9-127.0.0.2 is not a range"},
	})
}

// TestMapGenMakesTheServersMap: -map-gen WxH with -seed gives the server
// a generated map of that size, the same for the same seed, up to
// 1024x1024 (its cells follow the Welcome in chunks).
func TestMapGenMakesTheServersMap(t *testing.T) {
	f := parseGame(t, "-server", "-map-gen", "200x120", "-seed", "7").Map
	m, err := f.Load()
	if err != nil {
		t.Fatal(err)
	}
	if m.Width() != 200 || m.Height() != 120 {
		t.Fatalf("map %dx%d, want 200x120", m.Width(), m.Height())
	}
	again, _ := f.Load()
	f.Seed = 8
	other, _ := f.Load()
	if again.String() != m.String() || other.String() == m.String() {
		t.Error("-seed does not decide the map alone")
	}
	f.Gen = server.MapSize{W: 1024, H: 1024}
	if big, err := f.Load(); err != nil || big.Width() != 1024 || big.Height() != 1024 {
		t.Errorf("-map-gen 1024x1024: %v, want a 1024x1024 map (it follows the Welcome in chunks)", err)
	}
}
