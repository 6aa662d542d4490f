package hub

import (
	"fmt"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/protocol"
	"gridlag/server/world"
	"gridlag/server/world/worldtest"
)

const ms = time.Millisecond

// rig is a hub on a virtual clock with its connections: what the hub
// sends each goes through the wire's bytes (a State as a step on its
// connection's stream) and is read back, as a TCP client reads it; a
// connection the hub closes after a message is reported gone at once, as
// the TCP adapter reports it. Every note is kept.
type rig struct {
	t     *testing.T
	h     *Hub
	now   time.Duration
	next  world.ConnID
	peers map[world.ConnID]*peer
	notes []Note
	// crowds are the teachers' orders of bots so far (Out.Crowds).
	crowds []CrowdOrder
	// joinEach, if not 0, is what each join costs the adapter: after
	// every wake that did not tick, the rig reports the joins it took at
	// this cost (Hub.JoinCost), as the TCP server does with the time.
	joinEach time.Duration
}

// peer is one connection of a rig: what it was sent, in order.
type peer struct {
	r      *rig
	id     world.ConnID
	got    []protocol.Message
	at     []time.Duration      // when each of got came
	read   int                  // got[:read] were read by next
	states protocol.StateStream // the hub's end of the stream of States to it
	reads  protocol.StateStream // and the peer's end
	seen   worldtest.Picture    // the players in view, from the States so far
	closed bool                 // the hub closed it after its last message
	// admission is the server's rules of admission it was told (version
	// 6), kept apart from got: every other test reads its answer first.
	admission *protocol.Admission
}

// newRig starts a hub of opts at time 0.
func newRig(t *testing.T, opts Options) *rig {
	return &rig{t: t, h: New(0, opts), peers: make(map[world.ConnID]*peer)}
}

// dial connects a new peer from host.
func (r *rig) dial(host string) *peer {
	return r.dialFrom(Origin{Host: host})
}

// dialFrom connects a new peer from the origin.
func (r *rig) dialFrom(from Origin) *peer {
	r.next++
	p := &peer{r: r, id: r.next}
	r.peers[p.id] = p
	r.h.Connect(r.now, p.id, from)
	r.flush()
	return p
}

// flush delivers what the hub produced.
func (r *rig) flush() {
	for {
		out := r.h.Outbox()
		if len(out.Envelopes) == 0 && len(out.Notes) == 0 {
			return
		}
		r.notes = append(r.notes, out.Notes...)
		r.crowds = append(r.crowds, out.Crowds...)
		var closed []world.ConnID
		for _, e := range out.Envelopes {
			p := r.peers[e.To]
			if p == nil || p.closed {
				continue
			}
			b, err := p.states.Append(nil, e.Msg)
			if err != nil {
				r.t.Fatalf("the hub sent a message that does not encode: %v", err)
			}
			m, _, err := p.reads.Unmarshal(b)
			if err != nil {
				r.t.Fatal(err)
			}
			if a, ok := m.(*protocol.Admission); ok && p.admission == nil && len(p.got) == 0 {
				p.admission = a
				continue
			}
			p.got = append(p.got, m)
			p.at = append(p.at, r.now)
			if e.Close {
				p.closed = true
				closed = append(closed, e.To)
			}
		}
		for _, id := range closed {
			r.h.Disconnect(r.now, id, "connection closed")
		}
	}
}

// advance moves the clock by d, advancing the hub at every wake on the way.
func (r *rig) advance(d time.Duration) {
	end := r.now + d
	for {
		at, ok := r.h.NextWake()
		if !ok || at > end {
			break
		}
		r.now = max(r.now, at)
		ticked := r.h.Advance(r.now)
		r.flush()
		if n := r.h.line.unreported; !ticked && r.joinEach > 0 && n > 0 {
			r.h.JoinCost(time.Duration(n) * r.joinEach)
		}
	}
	r.now = end
}

// noted returns the notes of kind k so far.
func (r *rig) noted(k NoteKind) []Note {
	var ns []Note
	for _, n := range r.notes {
		if n.Kind == k {
			ns = append(ns, n)
		}
	}
	return ns
}

// event returns the first world event of kind k noted so far.
func (r *rig) event(k world.EventKind) (world.Event, bool) {
	for _, n := range r.noted(NoteEvent) {
		if n.Event.Kind == k {
			return n.Event, true
		}
	}
	return world.Event{}, false
}

// send sends m from p, received now.
func (p *peer) send(m protocol.Message) {
	p.r.h.Receive(p.r.now, p.id, m)
	p.r.flush()
}

// gone reports p's connection ended from its side, now.
func (p *peer) gone(reason string) {
	p.closed = true
	p.r.h.Disconnect(p.r.now, p.id, reason)
	p.r.flush()
}

// next returns the next message p was sent, advancing the clock a tick at
// a time (for at most a minute) until one comes.
func (p *peer) next(what string) protocol.Message {
	p.r.t.Helper()
	for range 60 * 1000 {
		if p.read < len(p.got) {
			m := p.got[p.read]
			p.read++
			switch v := m.(type) {
			case *protocol.State:
				p.seen.Whole(v)
			case *protocol.Leave:
				p.seen.Take(v)
			}
			return m
		}
		if p.closed {
			p.r.t.Fatalf("waiting for %s: connection %d closed", what, p.id)
		}
		p.r.advance(ms)
	}
	p.r.t.Fatalf("waiting for %s: nothing came", what)
	return nil
}

// until reads until a message satisfies ok, and returns it.
func (p *peer) until(what string, ok func(protocol.Message) bool) protocol.Message {
	p.r.t.Helper()
	for {
		if m := p.next(what); ok(m) {
			return m
		}
	}
}

// state reads until a State satisfying ok.
func (p *peer) state(what string, ok func(*protocol.State) bool) *protocol.State {
	p.r.t.Helper()
	return p.until(what, func(m protocol.Message) bool {
		st, is := m.(*protocol.State)
		return is && ok(st)
	}).(*protocol.State)
}

// join says Hello naming room and returns the Welcome.
func (p *peer) join(name, room string) *protocol.Welcome {
	p.r.t.Helper()
	p.send(&protocol.Hello{Version: protocol.Version, Name: name, Room: room})
	w, ok := p.next("join " + name).(*protocol.Welcome)
	if !ok {
		p.r.t.Fatalf("join %s in %q: got %+v, want a Welcome", name, room, p.got[p.read-1])
	}
	return w
}

// refusal reads until the hub closes p, and returns its last message,
// which must be an Error.
func (p *peer) refusal(what string) *protocol.Error {
	p.r.t.Helper()
	for !p.closed {
		p.r.advance(ms)
	}
	e, ok := p.got[len(p.got)-1].(*protocol.Error)
	if !ok {
		p.r.t.Fatalf("%s: the last message is %+v, want an Error", what, p.got[len(p.got)-1])
	}
	return e
}

// listRooms asks a new connection for the rooms.
func (r *rig) listRooms() *protocol.Rooms {
	r.t.Helper()
	p := r.dial("192.0.2.200")
	p.send(&protocol.ListRooms{Version: protocol.Version})
	list, ok := p.next("the room list").(*protocol.Rooms)
	if !ok {
		r.t.Fatalf("list rooms: got %+v, want Rooms", p.got[len(p.got)-1])
	}
	p.gone("connection closed by the client")
	return list
}

// stateCell returns player id's cell in a State.
func stateCell(st *protocol.State, id grid.PlayerID) (grid.Pos, bool) {
	for _, p := range st.Players {
		if p.ID == id {
			return p.Pos, true
		}
	}
	return grid.Pos{}, false
}

// host returns a documentation address for peer number i.
func host(i int) string { return fmt.Sprintf("192.0.2.%d", i) }
