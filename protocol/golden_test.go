package protocol_test

import (
	"bytes"
	"encoding/hex"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gridlag/protocol"
)

// update rewrites the golden files and the seed corpus from the examples:
//
//	go test ./protocol -run 'Golden|SeedCorpus' -update
//
// Review the diff before committing it: a changed golden file is a change of
// the wire format, which breaks every client and server already deployed.
var update = flag.Bool("update", false, "rewrite testdata/golden and testdata/fuzz/FuzzDecode seeds")

func TestGolden(t *testing.T) {
	exs := examples()
	seen := map[protocol.Type]bool{}
	for _, ex := range exs {
		seen[ex.msg.Type()] = true
	}
	for _, typ := range allTypes {
		if !seen[typ] {
			t.Errorf("no golden example for %v", typ)
		}
	}
	for _, ex := range exs {
		t.Run(ex.file, func(t *testing.T) {
			// A message's golden file is named for its type, a later
			// version's form of it (optional fields set) TYPE-vN.bin.
			if want := strings.ToLower(ex.msg.Type().String()); ex.file != want+".bin" && !strings.HasPrefix(ex.file, want+"-v") {
				t.Fatalf("golden file for %v is named %s, want %s.bin (or %s-vN.bin)", ex.msg.Type(), ex.file, want, want)
			}
			path := filepath.Join("testdata", "golden", ex.file)
			got := mustMarshal(t, ex.msg)
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			golden, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./protocol -update to create it)", err)
			}
			if !bytes.Equal(got, golden) {
				t.Errorf("Marshal(%v) changed the wire format:\n got  %s\n want %s", ex.msg.Type(), hex.EncodeToString(got), hex.EncodeToString(golden))
			}
			msg, n, err := protocol.Unmarshal(golden)
			if err != nil {
				t.Fatalf("Unmarshal(golden): %v", err)
			}
			if n != len(golden) {
				t.Errorf("Unmarshal(golden) took %d of %d bytes", n, len(golden))
			}
			if !reflect.DeepEqual(msg, ex.msg) {
				t.Errorf("Unmarshal(golden) = %#v, want %#v", msg, ex.msg)
			}
			if golden[protocol.HeaderLen] != byte(ex.msg.Type()) {
				t.Errorf("type byte is %d, want %d", golden[protocol.HeaderLen], ex.msg.Type())
			}
		})
	}
}

// TestGoldenStreams pins the frames whose bytes depend on the stream (a
// State step): an Encoder writes each golden stream byte for byte, and a
// Decoder gives its messages back.
func TestGoldenStreams(t *testing.T) {
	for _, ex := range streamExamples() {
		t.Run(ex.file, func(t *testing.T) {
			path := filepath.Join("testdata", "golden", ex.file)
			var got bytes.Buffer
			enc := protocol.NewEncoder(&got)
			for _, m := range ex.msgs {
				if err := enc.Encode(m); err != nil {
					t.Fatalf("Encode(%#v): %v", m, err)
				}
			}
			if *update {
				if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			golden, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./protocol -update to create it)", err)
			}
			if !bytes.Equal(got.Bytes(), golden) {
				t.Errorf("the stream changed the wire format:\n got  %s\n want %s", hex.EncodeToString(got.Bytes()), hex.EncodeToString(golden))
			}
			dec := protocol.NewDecoder(bytes.NewReader(golden))
			for i, want := range ex.msgs {
				if m, err := dec.Decode(); err != nil || !reflect.DeepEqual(m, want) {
					t.Fatalf("frame %d of the golden stream: %#v, %v; want %#v", i, m, err, want)
				}
			}
		})
	}
}

// TestGoldenFilesHaveExamples catches a golden file left behind by a renamed
// or removed example: every file must be checked by TestGolden.
func TestGoldenFilesHaveExamples(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "*"))
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, ex := range examples() {
		known[ex.file] = true
	}
	for _, ex := range streamExamples() {
		known[ex.file] = true
	}
	for _, f := range files {
		if !known[filepath.Base(f)] {
			t.Errorf("%s has no example in examples_test.go", f)
		}
	}
}

// TestInputFrameIsEightBytes pins the size of the most frequent message: a
// key press costs 2 bytes of length, 1 of type, 4 of sequence and 1 of
// direction, whatever the values.
func TestInputFrameIsEightBytes(t *testing.T) {
	for _, in := range []*protocol.Input{{Seq: 0, Dir: 1}, {Seq: 1, Dir: 4}, {Seq: 1<<32 - 1, Dir: 2}} {
		if b := mustMarshal(t, in); len(b) != 8 {
			t.Errorf("Input %+v is a %d-byte frame, want 8", in, len(b))
		}
	}
	golden, err := os.ReadFile(filepath.Join("testdata", "golden", "input.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if len(golden) != 8 {
		t.Errorf("input.bin is %d bytes, want 8", len(golden))
	}
}
