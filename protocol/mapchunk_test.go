package protocol_test

import (
	"bytes"
	"testing"

	"gridlag/grid"
	"gridlag/protocol"
)

// TestBigMapTravelsInChunks: a generated 1024x1024 map does not travel in
// its Welcome; its chunks each fit a frame and, decoded and put together
// in order, give the map back cell for cell.
func TestBigMapTravelsInChunks(t *testing.T) {
	m, err := grid.Generate(1024, 1024, 1)
	if err != nil {
		t.Fatal(err)
	}
	w := &protocol.Welcome{Player: 1, MapWidth: 1024, MapHeight: 1024}
	if !w.MapFollows() {
		t.Fatal("a 1024x1024 map should follow the Welcome in chunks")
	}
	b := mustMarshal(t, w)
	if got, _, err := protocol.Unmarshal(b); err != nil || !got.(*protocol.Welcome).MapFollows() {
		t.Fatalf("the Welcome of a big map: %v", err)
	}
	var cells []byte
	total := 0
	for _, c := range protocol.MapChunks(m) {
		b := mustMarshal(t, c)
		total += len(b)
		got, _, err := protocol.Unmarshal(b)
		if err != nil {
			t.Fatalf("chunk at row %d: %v", c.Y, err)
		}
		if got := got.(*protocol.MapChunk); int(got.Y)*1024 != len(cells) {
			t.Fatalf("chunk at row %d after %d rows", got.Y, len(cells)/1024)
		}
		cells = append(cells, got.(*protocol.MapChunk).Cells...)
	}
	if !bytes.Equal(cells, m.Cells()) {
		t.Fatal("the chunks do not give the map back")
	}
	if total > 300<<10 {
		t.Errorf("the map took %d bytes on the wire, want run-length encoding to keep it under 300 KB", total)
	}
	t.Logf("1024x1024 generated map: %d bytes in chunks (1 MiB of cells)", total)
}

// TestSmallMapStaysInline: the default map still travels in its Welcome.
func TestSmallMapStaysInline(t *testing.T) {
	m := grid.DefaultMap()
	w := &protocol.Welcome{Player: 1, MapWidth: uint16(m.Width()), MapHeight: uint16(m.Height()), Cells: m.Cells()}
	if w.MapFollows() {
		t.Error("the default map should travel in the Welcome")
	}
	if _, err := w.Map(); err != nil {
		t.Error(err)
	}
}
