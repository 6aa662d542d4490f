package hub

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"gridlag/protocol"
	"gridlag/server/world"
)

// TestOneScheduleForEveryRoom: the rooms tick and ping on the hub's beats
// whenever they opened, so one wake serves them all; Advance says when it
// ticked; a hub in immediate mode without pings has nothing to wake for.
func TestOneScheduleForEveryRoom(t *testing.T) {
	h := New(0, Options{Config: world.Config{Rate: 20}, PingInterval: time.Second})
	open := func(now time.Duration, id world.ConnID, room string) {
		h.Connect(now, id, Origin{Own: true})
		h.Receive(now, id, &protocol.Hello{Version: protocol.Version, Name: room, Room: room})
		h.Outbox()
	}
	open(1234*ms, 1, "red")
	open(1777*ms, 2, "blue")
	var wakes []time.Duration
	for {
		at, ok := h.NextWake()
		if !ok || at > 3*time.Second {
			break
		}
		if !h.Advance(at) {
			t.Errorf("woken at %v without a tick", at)
		}
		wakes = append(wakes, at)
		h.Outbox()
		if blue, _ := h.Room("blue"); at == 1950*ms && blue.Stats().Pings != 0 || at == 2*time.Second && blue.Stats().Pings != 1 {
			t.Errorf("blue, opened at 1.777s, has pinged %d times at %v: want its first ping on the hub's beat, at 2s", blue.Stats().Pings, at)
		}
	}
	for _, at := range wakes {
		if at%(50*ms) != 0 {
			t.Fatalf("woken at %v, off the beat of 20 Hz", at)
		}
	}
	if len(wakes) != 60 || wakes[0] != 50*ms {
		t.Errorf("%d wakes from %v in 3 s, want 60 from 50ms: one wake a tick for every room", len(wakes), wakes[0])
	}
	for _, name := range []string{"red", "blue"} {
		if c, _ := h.Room(name); c.Stats().Pings != 1 {
			t.Errorf("room %q pinged its player %d times, want once (at 2s: nobody answers)", name, c.Stats().Pings)
		}
	}
	if red, _ := h.Room("red"); red.Stats().Ticks != 36 {
		t.Errorf("red ticked %d times from 1.234s to 3s, want 36", red.Stats().Ticks)
	}
	quiet := New(0, Options{})
	quiet.PingEvery(0, 0)
	if at, ok := quiet.NextWake(); ok {
		t.Errorf("a hub in immediate mode without pings wakes at %v", at)
	}
}

// TestDrainCountsDown: a drain tells everyone the time left at once and
// at each whole second left, measured from its end, and tells a
// connection that comes meanwhile at once.
func TestDrainCountsDown(t *testing.T) {
	r := newRig(t, Options{Config: world.Config{}})
	r.h.PingEvery(0, 0)
	ann := r.dial(host(1))
	ann.join("ann", "")
	lobby := r.dial(host(2))
	r.h.Drain(r.now, 2400*ms)
	r.flush()
	r.advance(time.Second)
	late := r.dial(host(3))
	r.advance(2 * time.Second)
	notices := func(p *peer) (texts []string) {
		for _, m := range p.got {
			if n, ok := m.(*protocol.Notice); ok {
				texts = append(texts, n.Text)
			}
		}
		return texts
	}
	want := []string{"server stopping in 2 s", "server stopping in 1 s", "server stopping now"}
	for _, p := range []*peer{ann, lobby, late} {
		if got := notices(p); !slices.Equal(got, want) {
			t.Errorf("connection %d was told %q, want %q (at 0, 1.4s and 2.4s, or when it came)", p.id, got, want)
		}
	}
	if at, ok := r.h.NextWake(); ok {
		t.Errorf("the countdown is over but the hub wakes at %v", at)
	}
}

// TestNotesCountTheRefused: a connection counts as refused when nothing it
// sent reached a world or a lobby (refused by the hub, or gone before its
// first message), not when a lobby or a world took it.
func TestNotesCountTheRefused(t *testing.T) {
	r := newRig(t, Options{Config: world.Config{}, JoinRate: 1})
	counted := func() map[NoteKind][]bool {
		m := map[NoteKind][]bool{}
		for _, n := range r.notes {
			if n.Kind == NoteRefused || n.Kind == NoteEnded {
				m[n.Kind] = append(m[n.Kind], n.Counted)
			}
		}
		r.notes = nil
		return m
	}
	r.dial(host(1)).gone("no Hello within 5s")
	if got := counted(); !slices.Equal(got[NoteEnded], []bool{true}) {
		t.Errorf("a connection gone before its first message: %v, want counted", got)
	}
	lobby := r.dial(host(1))
	lobby.send(&protocol.ListRooms{Version: protocol.Version})
	lobby.gone("connection closed by the client")
	if got := counted(); !slices.Equal(got[NoteEnded], []bool{false}) {
		t.Errorf("a lobby's end: %v, want not counted", got)
	}
	for i := range JoinBurst { // a burst of JoinBurst joins at 1 a second
		r.dial(host(2)).join(fmt.Sprint("p", i), "")
		r.notes = nil
	}
	p := r.dial(host(2))
	p.send(&protocol.Hello{Version: protocol.Version, Name: "q"})
	if e := p.refusal("a join over the rate"); e.Code != protocol.ErrCodeFlood {
		t.Errorf("a join over the rate got %+v", e)
	}
	if got := counted(); !slices.Equal(got[NoteRefused], []bool{true}) || len(got[NoteEnded]) != 0 {
		t.Errorf("a join refused by the hub: %v, want one refusal counted, no end (the hub ended it)", got)
	}
	bad := r.dial(host(3))
	bad.send(&protocol.Hello{Version: protocol.Version, Name: ""})
	bad.refusal("an empty name")
	if ev, ok := r.event(world.EventRefused); !ok || ev.Conn != bad.id {
		t.Errorf("a name the world refused: %+v, want the world's refusal noted", ev)
	}
	if got := counted(); !slices.Equal(got[NoteEnded], []bool{false}) {
		t.Errorf("a connection the world refused, ending: %v, want not counted again", got)
	}
}

// TestRatesForgetAddresses: an address that used a rate is remembered
// until its bucket is full again, and the hub wakes to forget it; a hub
// nobody asked anything of does not wake for it.
func TestRatesForgetAddresses(t *testing.T) {
	h := New(0, Options{Config: world.Config{}})
	h.PingEvery(0, 0)
	h.Connect(0, 1, Origin{Host: host(1)})
	h.Receive(0, 1, &protocol.ListRooms{Version: protocol.Version})
	h.Outbox()
	at, ok := h.NextWake()
	if !ok || at != time.Second {
		t.Fatalf("after a room list the hub wakes at %v (%v), want 1s, to forget the address", at, ok)
	}
	h.Advance(at)
	if h.rated() {
		t.Error("the address is still remembered a second later")
	}
	if at, ok := h.NextWake(); ok {
		t.Errorf("with nothing to forget the hub wakes at %v", at)
	}
}
