package server

import (
	"bytes"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
)

// wire returns what the frames say on the wire.
func wire(frames []frame) []byte {
	var b []byte
	for _, f := range frames {
		b = append(b, f.head...)
	}
	return b
}

// marshalAll encodes every envelope with the protocol package.
func marshalAll(t testing.TB, out []Envelope) []byte {
	var b []byte
	for _, env := range out {
		var err error
		if b, err = protocol.Append(b, env.Msg); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

func TestEncoderMatchesProtocol(t *testing.T) {
	c := NewCore(Config{Rate: 0})
	var enc encoder
	check := func(what string) {
		t.Helper()
		out := c.Outbox().Envelopes
		frames := enc.encode(out, func(env Envelope, err error) { t.Fatalf("%s: %v", what, err) })
		if len(frames) != len(out) {
			t.Fatalf("%s: %d frames for %d envelopes", what, len(frames), len(out))
		}
		for i := range out {
			if frames[i].close != out[i].Close {
				t.Errorf("%s: frame %d close=%v", what, i, frames[i].close)
			}
		}
		if got, want := wire(frames), marshalAll(t, out); !bytes.Equal(got, want) {
			t.Fatalf("%s: encoder wrote\n%x\nprotocol says\n%x", what, got, want)
		}
	}
	for i := 1; i <= 12; i++ {
		c.Receive(time.Duration(i)*ms, ConnID(i), &protocol.Hello{Version: protocol.Version, Name: "p", Bot: i > 6})
		check("join")
	}
	for k := 1; k <= 200; k++ {
		now := time.Duration(k) * 37 * ms
		id := ConnID(k%12 + 1)
		// Several broadcasts in one batch, each with its own players.
		c.Receive(now, id, &protocol.Input{Seq: uint32(k), Dir: grid.Dir(k%4 + 1)})
		c.Receive(now, id, &protocol.Ping{Stamp: uint64(k)})
		c.Tick(now)
		check("inputs")
	}
	c.Receive(time.Hour, 3, &protocol.Bye{Reason: "done"})
	c.Receive(time.Hour, 4, &protocol.Welcome{})
	check("leaves")
	// States with ack values that use every byte of the field.
	c.Receive(time.Hour, 5, &protocol.Input{Seq: 0xA1B2C3D4, Dir: grid.Up})
	check("big ack")
}

// BenchmarkEncodeTick1000 measures the adapter's encoding of one tick with
// 1,000 players: the Core's Tick plus turning its 1,000 States into frames.
func BenchmarkEncodeTick1000(b *testing.B) {
	const n = 1000
	c := busyCore(b, n)
	var enc encoder
	now := 2 * time.Second
	b.ReportAllocs()
	b.ResetTimer()
	bytes := 0
	for i := 0; i < b.N; i++ {
		now += 50 * time.Millisecond
		c.Tick(now)
		frames := enc.encode(c.Outbox().Envelopes, nil)
		bytes = 0
		for _, f := range frames {
			bytes += len(f.head)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/player-tick")
	b.ReportMetric(float64(bytes), "wire-bytes/tick")
}

// BenchmarkEncodeTick1000Naive is the same tick encoded one State at a
// time with protocol.Append, for comparison.
func BenchmarkEncodeTick1000Naive(b *testing.B) {
	const n = 1000
	c := busyCore(b, n)
	now := 2 * time.Second
	var buf []byte
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		now += 50 * time.Millisecond
		c.Tick(now)
		for _, env := range c.Outbox().Envelopes {
			buf, _ = protocol.Append(buf[:0], env.Msg)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/player-tick")
}
