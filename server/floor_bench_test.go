package server

import (
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// BenchmarkBareWriteFloor is the floor the server's cost per delivered
// State is measured against: a bare loop, with no Core, queue, goroutine
// hop or deadline, writes to each of n loopback sockets the bytes a server
// would send it each tick (one State carrying every player's cell, with the
// recipient's own Ack), while one goroutine per socket reads and discards,
// as a client would. One iteration is one tick: n States. It reports
// ns/state (elapsed) and cpu-ns/state (the process's user and system time,
// readers included), to be set beside a benchmark of the server delivering
// the same States to the same number of sockets in the same run.
func BenchmarkBareWriteFloor(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("clients=%d", n), func(b *testing.B) {
			conns := loopbackPairs(b, n)
			frames := tickFrames(b, n)
			b.SetBytes(int64(len(frames[0]) * n))
			b.ReportAllocs()
			b.ResetTimer()
			cpu := writeTicks(b, conns, frames, b.N, 0)
			b.StopTimer()
			states := float64(b.N) * float64(n)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/states, "ns/state")
			b.ReportMetric(cpu/states, "cpu-ns/state")
		})
	}
}

// writeTicks writes frames[k] to conns[k], for every k, ticks times from a
// bare loop, one tick per interval (0: back to back), and returns the
// process's CPU time it took, in ns.
func writeTicks(tb testing.TB, conns []net.Conn, frames [][]byte, ticks int, interval time.Duration) float64 {
	tb.Helper()
	cpu0 := processCPU()
	next := time.Now()
	for range ticks {
		// A benchmark's pace, what it measures: a server's ticks come on
		// the wall clock, and the sockets' cost between them is the figure.
		time.Sleep(time.Until(next))
		next = next.Add(interval)
		for k, c := range conns {
			if _, err := c.Write(frames[k]); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return float64(processCPU() - cpu0)
}

// tickFrames returns the States of one tick with n players, one frame per
// recipient: the player list encoded once, each with its own head.
func tickFrames(tb testing.TB, n int) [][]byte {
	tb.Helper()
	st := &protocol.State{Tick: 100, TimeNS: uint64(5 * time.Second), Players: make([]grid.PlayerPos, n)}
	for i := range st.Players {
		st.Players[i] = grid.PlayerPos{ID: grid.PlayerID(i + 1), Pos: grid.Pos{X: 1 + i%250, Y: 1 + i/250}}
	}
	full, err := protocol.Marshal(st)
	if err != nil {
		tb.Fatal(err)
	}
	frames := make([][]byte, n)
	for k := range frames {
		st.Ack = uint32(k)
		head, err := protocol.AppendStateHead(nil, st)
		if err != nil {
			tb.Fatal(err)
		}
		frames[k] = append(head, full[protocol.StateHeadLen:]...)
	}
	return frames
}

// loopbackPairs opens n loopback TCP connections and returns the server
// ends; a goroutine reads and discards each client end until the
// benchmark's cleanup closes them.
func loopbackPairs(tb testing.TB, n int) []net.Conn {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer ln.Close()
	conns := make([]net.Conn, n)
	for i := range conns {
		client, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			tb.Fatal(err)
		}
		if conns[i], err = ln.Accept(); err != nil {
			tb.Fatal(err)
		}
		go io.Copy(io.Discard, client)
		tb.Cleanup(func() {
			conns[i].Close()
			client.Close()
		})
	}
	return conns
}

// processCPU is the process's user and system CPU time so far, in ns.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
