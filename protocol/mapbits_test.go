package protocol_test

import (
	"bytes"
	"compress/zlib"
	"errors"
	"runtime"
	"strings"
	"testing"

	"gridlag/grid"
	"gridlag/protocol"
)

// zlibOf compresses b as a server does.
func zlibOf(b []byte) []byte {
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	w.Write(b)
	w.Close()
	return z.Bytes()
}

// wireBytes is what the pieces take on the wire, frames and all.
func wireBytes(t testing.TB, pieces []*protocol.MapBits) int {
	n := 0
	for _, p := range pieces {
		n += len(mustMarshal(t, p))
	}
	return n
}

// assemble decodes the pieces' frames into a MapBitsBuffer, as a client
// does, and returns the map the last gives.
func assemble(t testing.TB, width, height uint16, pieces []*protocol.MapBits) (*grid.Map, error) {
	t.Helper()
	buf := protocol.NewMapBitsBuffer(width, height)
	for i, p := range pieces {
		got, _, err := protocol.Unmarshal(mustMarshal(t, p))
		if err != nil {
			t.Fatalf("piece %d: %v", i, err)
		}
		m, err := buf.Add(got.(*protocol.MapBits))
		if err != nil || i == len(pieces)-1 {
			return m, err
		}
		if m != nil {
			t.Fatalf("a map after piece %d of %d", i+1, len(pieces))
		}
	}
	return nil, errors.New("no piece")
}

// TestBigMapTravelsAsBits: a generated 1024x1024 map (seed 1) travels in
// at most 40 KB of MapBits, against about 225 KB of MapChunks, and the
// pieces, decoded and put together, give it back cell for cell; so do
// maps of odd widths and maps that do not compress (one piece each would
// not hold them).
func TestBigMapTravelsAsBits(t *testing.T) {
	m, err := grid.Generate(1024, 1024, 1)
	if err != nil {
		t.Fatal(err)
	}
	pieces := protocol.MapBitsOf(m)
	bits, chunks := wireBytes(t, pieces), 0
	for _, c := range protocol.MapChunks(m) {
		chunks += len(mustMarshal(t, c))
	}
	if bits > 40<<10 {
		t.Errorf("the map takes %d bytes as MapBits, want at most 40 KB", bits)
	}
	t.Logf("1024x1024 generated map, seed 1: %d bytes of MapBits in %d frames, %d bytes of MapChunks (%.1fx)", bits, len(pieces), chunks, float64(chunks)/float64(bits))
	got, err := assemble(t, 1024, 1024, pieces)
	if err != nil || !bytes.Equal(got.Cells(), m.Cells()) {
		t.Fatalf("the pieces do not give the map back: %v", err)
	}

	// A map of noise does not compress: its stream takes several frames.
	for _, size := range [][2]int{{1024, 1024}, {1021, 333}, {257, 300}} {
		w, h := size[0], size[1]
		cells := make([]byte, w*h)
		x := uint32(2463534242)
		for i := range cells {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			cells[i] = ".#"[x&1]
		}
		m, err := grid.NewMapFromCells(w, h, cells)
		if err != nil {
			t.Fatal(err)
		}
		pieces := protocol.MapBitsOf(m)
		if w == 1024 && len(pieces) < 2 {
			t.Errorf("%dx%d of noise: %d piece, want the stream cut into frames", w, h, len(pieces))
		}
		got, err := assemble(t, uint16(w), uint16(h), pieces)
		if err != nil || !bytes.Equal(got.Cells(), cells) {
			t.Errorf("%dx%d of noise: the pieces do not give the map back: %v", w, h, err)
		}
	}
	if protocol.MapBitsOf(grid.DefaultMap()) != nil {
		t.Error("the default map travels inline: it has no MapBits")
	}
}

// TestMapBitsBombIsBounded: a stream that inflates far past the map's
// declared size (100 MiB of zeros, about 100 KB compressed, within the
// bound for a 1024x1024 map) is refused after reading the map's bitmap
// and a byte more: decoding it allocates far less than the map's 1 MiB.
func TestMapBitsBombIsBounded(t *testing.T) {
	bomb := zlibOf(make([]byte, 100<<20))
	if len(bomb) > protocol.MaxMapBitsLen(1024, 1024) {
		t.Fatalf("the bomb is %d bytes: it should pass the bound on the stream's length", len(bomb))
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := protocol.DecodeMapBits(1024, 1024, bomb)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, protocol.ErrMapBits) || !strings.Contains(err.Error(), "past the map's size") {
		t.Errorf("a bomb: %v, want it refused as inflating past the map", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
		t.Errorf("decoding the bomb allocated %d bytes, more than the map's 1 MiB", alloc)
	} else {
		t.Logf("decoding the bomb allocated %d bytes", alloc)
	}

	// Through the buffer, the pieces are refused as soon as their claimed
	// total passes the bound, before anything is kept.
	over := &protocol.MapBits{Width: 1024, Height: 1024, Total: uint32(protocol.MaxMapBitsLen(1024, 1024) + 1), Data: []byte{1}}
	if _, err := protocol.Marshal(over); !errors.Is(err, protocol.ErrBadValue) {
		t.Errorf("a stream longer than the bound encodes: %v", err)
	}
	if _, err := protocol.NewMapBitsBuffer(1024, 1024).Add(over); err == nil {
		t.Error("the buffer takes a stream longer than the bound")
	}
}

// TestMapBitsRefusesWhatNoServerSends: each way a stream or its pieces can
// be wrong is an error, never a wrong map.
func TestMapBitsRefusesWhatNoServerSends(t *testing.T) {
	const w, h = 300, 250 // 75,000 cells: too many for a Welcome
	m, err := grid.Generate(w, h, 2)
	if err != nil {
		t.Fatal(err)
	}
	good := protocol.MapBitsOf(m)
	if len(good) != 1 {
		t.Fatalf("%d pieces", len(good))
	}
	stream := good[0].Data
	bitmap := make([]byte, protocol.MapRowBytes(w)*h)
	withPad := append([]byte(nil), bitmap...)
	withPad[protocol.MapRowBytes(w)-1] |= 1 // a bit past the first row's end
	corrupt := append([]byte(nil), stream...)
	corrupt[len(corrupt)-1] ^= 1 // the checksum
	for _, c := range []struct {
		name   string
		stream []byte
		want   string
	}{
		{"short", zlibOf(bitmap[:len(bitmap)-1]), "unexpected EOF"},
		{"long", zlibOf(append(bitmap, 0)), "past the map's size"},
		{"cut", stream[:len(stream)-5], "unexpected EOF"},
		{"checksum", corrupt, "checksum"},
		{"trailing", append(append([]byte(nil), stream...), 0), "after the stream's end"},
		{"pad bits", zlibOf(withPad), "bits past its end"},
		{"not zlib", []byte("#####....."), "header"},
	} {
		if _, err := protocol.DecodeMapBits(w, h, c.stream); !errors.Is(err, protocol.ErrMapBits) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}

	two := []*protocol.MapBits{
		{Width: w, Height: h, Total: uint32(len(stream)), Offset: 0, Data: stream[:10]},
		{Width: w, Height: h, Total: uint32(len(stream)), Offset: 10, Data: stream[10:]},
	}
	if got, err := assemble(t, w, h, two); err != nil || !bytes.Equal(got.Cells(), m.Cells()) {
		t.Fatalf("two pieces: %v", err)
	}
	for _, c := range []struct {
		name string
		bad  *protocol.MapBits // after the first piece
	}{
		{"other size", &protocol.MapBits{Width: w, Height: h + 1, Total: uint32(len(stream)), Offset: 10, Data: stream[10:]}},
		{"out of order", &protocol.MapBits{Width: w, Height: h, Total: uint32(len(stream)), Offset: 11, Data: stream[11:]}},
		{"again", two[0]},
		{"other total", &protocol.MapBits{Width: w, Height: h, Total: uint32(len(stream)) + 1, Offset: 10, Data: stream[10:]}},
	} {
		buf := protocol.NewMapBitsBuffer(w, h)
		if _, err := buf.Add(two[0]); err != nil {
			t.Fatal(err)
		}
		if m, err := buf.Add(c.bad); err == nil || m != nil {
			t.Errorf("%s: %v, %v; want an error", c.name, m, err)
		}
	}
}

// FuzzMapBits feeds arbitrary streams to DecodeMapBits for maps of any
// size: it never panics, refuses with ErrMapBits, and a stream it takes
// gives exactly the map's cells, walls and floors, which encode back to
// a stream that gives them again.
//
//	go test -run='^$' -fuzz='^FuzzMapBits$' -fuzztime=60s ./protocol
func FuzzMapBits(f *testing.F) {
	m, err := grid.Generate(300, 250, 1)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(uint16(300), uint16(250), protocol.MapBitsOf(m)[0].Data)
	f.Add(uint16(16), uint16(2), zlibOf([]byte{0xff, 0xff, 0x80, 0x01}))
	f.Add(uint16(9), uint16(1), zlibOf([]byte{0xff, 0x80}))
	f.Add(uint16(9), uint16(1), zlibOf([]byte{0xff, 0x81}))
	f.Add(uint16(64), uint16(64), zlibOf(make([]byte, 1<<16)))
	f.Add(uint16(8), uint16(8), []byte{0x78, 0x9c})
	f.Add(uint16(0), uint16(8), zlibOf([]byte{0}))
	f.Fuzz(func(t *testing.T, w, h uint16, stream []byte) {
		width, height := int(w)%(grid.MaxMapSide+1), int(h)%(grid.MaxMapSide+1)
		cells, err := protocol.DecodeMapBits(width, height, stream)
		if err != nil {
			if !errors.Is(err, protocol.ErrMapBits) || cells != nil {
				t.Fatalf("%dx%d: %v, %d cells: want ErrMapBits and no cells", width, height, err, len(cells))
			}
			return
		}
		if len(cells) != width*height || bytes.ContainsFunc(cells, func(r rune) bool { return r != grid.WallCell && r != grid.FloorCell }) {
			t.Fatalf("%dx%d: %d cells, or not walls and floors", width, height, len(cells))
		}
		m, err := grid.NewMapFromCells(width, height, cells)
		if err != nil {
			t.Fatal(err)
		}
		if !protocol.Supported(protocol.MapBitsSince) {
			t.Fatal("this build does not speak MapBits")
		}
		pieces := protocol.MapBitsOf(m)
		if pieces == nil {
			return // a map small enough to travel inline
		}
		var again []byte
		for _, p := range pieces {
			again = append(again, p.Data...)
		}
		if back, err := protocol.DecodeMapBits(width, height, again); err != nil || !bytes.Equal(back, cells) {
			t.Fatalf("%dx%d: encoded again, it does not decode to the same cells: %v", width, height, err)
		}
	})
}
