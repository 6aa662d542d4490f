package world

import (
	"bytes"
	"testing"
	"time"

	"gridlag/protocol"
	"gridlag/server/world/worldtest"
)

// TestResumeInItsOwnVersion: a player who joined with this version and
// comes back with a version 3 client gets the map as MapChunks, and the
// other way round: the map follows in the form of the connection that
// resumes.
func TestResumeInItsOwnVersion(t *testing.T) {
	m, spawn := worldtest.BigMap(t, 300)
	c := NewCore(Config{Map: m, Spawn: spawn, Rate: 20, Resume: 30 * time.Second})
	token := join(t, c, 0, 1, "ann", false).Token
	conn := ConnID(1)
	for i, v := range []struct {
		version uint16
		form    protocol.Type
	}{{protocol.MinVersion, protocol.TypeMapChunk}, {protocol.Version, protocol.TypeMapBits}} {
		now := time.Duration(i+1) * time.Second
		c.Drop(now, conn, "read: EOF")
		c.Outbox()
		conn++
		c.Receive(now, conn, &protocol.Resume{Version: v.version, Token: token})
		out := c.Outbox().Envelopes
		w, ok := out[0].Msg.(*protocol.Welcome)
		if !ok {
			t.Fatalf("version %d: resume answered %s: %+v", v.version, describe(out), out[0].Msg)
		}
		token = w.Token
		if cells, form := mapAfter(t, out, conn, 300, 300); form != v.form || !bytes.Equal(cells, m.Cells()) {
			t.Errorf("resumed with version %d: the map followed as %v, %d cells; want %v giving the map", v.version, form, len(cells), v.form)
		}
	}
}

// version3Types are the messages a server of protocol version 3 sent.
var version3Types = map[protocol.Type]bool{
	protocol.TypeWelcome: true, protocol.TypeError: true, protocol.TypeState: true, protocol.TypePing: true,
	protocol.TypePong: true, protocol.TypeBye: true, protocol.TypeJoin: true, protocol.TypeLeave: true,
	protocol.TypeSpectating: true, protocol.TypeOverview: true, protocol.TypeNotice: true,
	protocol.TypeZapResult: true, protocol.TypeTagged: true, protocol.TypeScores: true, protocol.TypeMapChunk: true,
	protocol.TypeRooms: true,
}

// TestVersion3ClientsGetVersion3: with spawn protection on, tags, misses
// on frozen and protected players, respawns and a round's end, a client
// of version 3 is sent only what a server of version 3 sent (Scores, no
// Ranking nor Protect, no zap outcome it cannot decode), while one of
// version 4 beside it gets the new messages.
func TestVersion3ClientsGetVersion3(t *testing.T) {
	cfg := Config{LagComp: true, Unlag: time.Second, Protect: 2 * time.Second, Round: 6 * time.Second}
	old := map[ConnID]uint16{liveAnn: 3, liveBob: 3, liveEve: 3}
	c := livenessCore(t, cfg, 2500*ms, 4800*ms, old)
	got := map[protocol.Type]int{}
	check := func(out []Envelope) {
		for _, e := range out {
			if _, isOld := old[e.To]; !isOld {
				got[e.Msg.Type()]++
				continue
			}
			if !version3Types[e.Msg.Type()] {
				t.Errorf("%v sent to a version-3 client", e.Msg.Type())
			}
			if z, ok := e.Msg.(*protocol.ZapResult); ok && z.Outcome > protocol.ZapFrozen {
				t.Errorf("zap outcome %v sent to a version-3 client", z.Outcome)
			}
		}
	}
	// eve sees bob frozen where he was tagged, then protected: ZapTagged,
	// ZapProtected; ann tags him again after his protection.
	for _, z := range []struct {
		now, seen time.Duration
		from      ConnID
		seq       uint32
	}{{4800 * ms, 4400 * ms, liveEve, 2}, {5000 * ms, 4800 * ms, liveDan, 2}, {7 * time.Second, 6800 * ms, liveDan, 3}} {
		c.Receive(z.now, z.from, &protocol.Zap{Seq: z.seq, RenderNS: uint64(z.seen)})
		check(c.Outbox().Envelopes)
	}
	for now := 7 * time.Second; now < 10*time.Second; now += 100 * ms {
		c.Ping(now)
		check(c.Outbox().Envelopes)
	}
	if c.Stats().Rounds == 0 || c.Stats().Tags < 2 {
		t.Errorf("stats %+v: the test needs a round's end and two tags", c.Stats())
	}
	if got[protocol.TypeProtect] == 0 || got[protocol.TypeRanking] == 0 {
		t.Errorf("the version-4 client got %v, want Protect and Ranking", got)
	}
}
