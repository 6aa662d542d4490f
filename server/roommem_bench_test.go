package server

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"gridlag/protocol"
)

// BenchmarkRoomMemory measures what a room held open costs on a generated
// 1024x1024 map: the server opens 64 rooms, a spectator watches each (so
// that each room's map is sent and its frames kept), and the heap grown
// per room, once it has ticked, is reported as B/room, with the time to
// open one and send it its map as ns/room.
func BenchmarkRoomMemory(b *testing.B) {
	m, spawn := bigMap(b, 1024)
	const rooms = 64
	var grown uint64
	for b.Loop() {
		s := New(Options{Config: Config{Map: m, Spawn: spawn, Rate: 20}})
		s.openRoom("")
		var before, after runtime.MemStats
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&before)
		b.StartTimer()
		for i := range rooms {
			r := s.openRoom(fmt.Sprintf("room-%d", i))
			id := ConnID(i + 1)
			r.core.Receive(0, id, &protocol.Spectate{Version: protocol.Version, Name: "watcher", Room: r.name})
			s.enc.encode(r.core.Outbox().Envelopes, wholeStates, r.core.share.frames, nil)
			r.core.Tick(time.Second / 20) // a room in play has ticked
			s.enc.encode(r.core.Outbox().Envelopes, wholeStates, r.core.share.frames, nil)
		}
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.StartTimer()
		grown += after.HeapAlloc - before.HeapAlloc
		runtime.KeepAlive(s)
	}
	b.ReportMetric(float64(grown)/float64(b.N*rooms), "B/room")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*rooms), "ns/room")
}
