package server

import (
	"testing"

	"gridlag/protocol"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// TestRoomListsAreCounted: the room lists a lobby is sent count in the
// bytes and frames out (gridlag_bytes_out_total), and requests share one
// encoding.
func TestRoomListsAreCounted(t *testing.T) {
	rec := newRecorder()
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20}}, Metrics: rec})
	c := dial(t, ts)
	for range 3 {
		c.send(&protocol.ListRooms{Version: protocol.Version})
		if _, err := c.recv(); err != nil {
			t.Fatal(err)
		}
	}
	b, err := protocol.Marshal(&protocol.Rooms{MaxRooms: hub.DefaultMaxRooms, Rooms: []protocol.RoomInfo{{MaxPlayers: world.DefaultMaxPlayers, Round: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	size := len(b)
	rec.waitFor(t, "three room lists sent", func(r *recorder) bool { return r.frames >= 3 && r.bytes >= 3*size })
}

// TestSendQueueBoundedInBytes: a client's queue holds at most
// SendQueueBytes, whatever the frames (a frame always fits an empty
// queue), and taking frames frees their bytes.
func TestSendQueueBoundedInBytes(t *testing.T) {
	c := &conn{shard: newShard(), queueCap: 1 << 20, byteCap: 100 << 10}
	big := frame{head: make([]byte, 60<<10)}
	if c.push(big) != queued {
		t.Fatal("a frame was refused by an empty queue")
	}
	if c.push(big) != full {
		t.Fatalf("a second 60 KB frame was queued over a 100 KB bound (%d bytes queued)", c.queuedB.Load())
	}
	for c.push(frame{head: make([]byte, 1000)}) == queued {
	}
	if n := c.queuedB.Load(); n > 100<<10 {
		t.Fatalf("%d bytes queued, more than the bound", n)
	}
	if !c.mustHold() {
		t.Error("a queue at its byte bound does not hold the reader back")
	}
	iov, _ := c.pieces(nil)
	if len(iov) == 0 || len(iov[0]) == 0 {
		t.Fatal("nothing to write in a full queue")
	}
	c.wrote(len(iov[0]), false)
	if c.queuedB.Load() > 100<<10-int64(len(iov[0])) {
		t.Errorf("wrote %d bytes, %d still counted", len(iov[0]), c.queuedB.Load())
	}
}
