package server

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"gridlag/protocol"
	"gridlag/server/hub"
	"gridlag/server/world"
	"gridlag/server/world/worldtest"
)

// BenchmarkRoomMemory measures what a room held open costs on a generated
// 1024x1024 map: the hub opens 64 rooms, a spectator watches each (so
// that each room's map is sent and its frames encoded), and the heap grown
// per room, once it has ticked, is reported as B/room, with the time to
// open one and send it its map as ns/room.
func BenchmarkRoomMemory(b *testing.B) {
	m, spawn := worldtest.BigMap(b, 1024)
	const rooms = 64
	var grown uint64
	for b.Loop() {
		h := hub.New(0, hub.Options{Config: world.Config{Map: m, Spawn: spawn, Rate: 20}})
		kept, err := keepPieces(h.Share())
		if err != nil {
			b.Fatal(err)
		}
		var enc encoder
		var before, after runtime.MemStats
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&before)
		b.StartTimer()
		for i := range rooms {
			id := world.ConnID(i + 1)
			h.Connect(0, id, hub.Origin{Own: true})
			h.Receive(0, id, &protocol.Spectate{Version: protocol.Version, Name: "watcher", Room: fmt.Sprintf("room-%d", i)})
			enc.encode(h.Outbox().Envelopes, wholeStates, kept, nil)
			h.Advance(time.Second / 20) // a room in play has ticked
			enc.encode(h.Outbox().Envelopes, wholeStates, kept, nil)
		}
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.StartTimer()
		grown += after.HeapAlloc - before.HeapAlloc
		runtime.KeepAlive(h)
	}
	b.ReportMetric(float64(grown)/float64(b.N*rooms), "B/room")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rooms), "ns/room")
}
