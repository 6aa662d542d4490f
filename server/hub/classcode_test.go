package hub

import (
	"strings"
	"testing"
	"time"

	"gridlag/protocol"
)

// codeOf reads until teacher t is told its class's code, and returns it.
func codeOf(t *peer) string {
	t.r.t.Helper()
	m := t.until("the class code", func(m protocol.Message) bool { _, ok := m.(*protocol.ClassCode); return ok })
	return m.(*protocol.ClassCode).Code
}

// joinWith says Code, then Hello naming room, and returns what came
// first: the Welcome, or the Error that refused it.
func (p *peer) joinWith(code, name, room string) protocol.Message {
	p.r.t.Helper()
	p.send(&protocol.Code{Code: code})
	if !p.closed {
		p.send(&protocol.Hello{Version: protocol.Version, Name: name, Room: room})
	}
	if p.closed {
		return p.got[len(p.got)-1]
	}
	return p.next("join " + name)
}

// TestClassCodeAdmitsAClassBehindOneAddress: with the hub's default
// caps, 40 students behind one address who present their teacher's code
// all join the teacher's room, whatever room their Hello names, held to
// the room's cap and not their address's; the same address without the
// code is still held to its 32 players; a wrong code is refused as
// "unknown class code".
func TestClassCodeAdmitsAClassBehindOneAddress(t *testing.T) {
	r := newRig(t, Options{})
	teacher := r.teacherIn("")
	code := codeOf(teacher)
	if !strings.HasPrefix(code, "class-") || len(code) != len("class-")+protocol.CodeLen || strings.Trim(code[len("class-"):], protocol.CodeAlphabet) != "" {
		t.Fatalf("the class code is %q, want class- and %d of %q", code, protocol.CodeLen, protocol.CodeAlphabet)
	}
	if n := r.noted(NoteCode); len(n) != 1 || n[0].Code != code || n[0].Room != "" {
		t.Errorf("noted %+v, want one NoteCode of %q for the default room", n, code)
	}
	const nat = "198.51.100.7"
	for i := range 40 {
		p := r.dial(nat)
		typed := code
		if i%2 == 1 {
			typed = " " + strings.ToLower(code) + " " // as a student types it
		}
		if w, ok := p.joinWith(typed, "s"+string(rune('a'+i%26))+string(rune('a'+i/26)), "elsewhere").(*protocol.Welcome); !ok {
			t.Fatalf("student %d with the code got %+v, want a Welcome", i+1, p.got[len(p.got)-1])
		} else if room, _ := r.h.RoomOf(p.id); room != r.h.rooms[""].core {
			t.Fatalf("student %d (player %d) joined another room than the teacher's", i+1, w.Player)
		}
	}
	if got := r.h.rooms[""].core.Stats().Players; got != 40 {
		t.Fatalf("the teacher's room has %d players, want the 40 students", got)
	}
	if _, ok := r.h.rooms["elsewhere"]; ok {
		t.Error("the room a coded Hello named was opened: the code's room is the class's")
	}
	// The address's own share is untouched by the class: 32 more
	// without the code, then refused.
	for i := range DefaultMaxPlayersPerAddr {
		r.dial(nat).join("n"+string(rune('a'+i%26))+string(rune('a'+i/26)), "")
	}
	over := r.dial(nat)
	over.send(&protocol.Hello{Version: protocol.Version, Name: "over"})
	if e := over.refusal("the 33rd without the code"); e.Code != protocol.ErrCodeFull || !strings.Contains(e.Text, "too many players from your address") {
		t.Errorf("the 33rd player without the code got %+v, want the per-address refusal", e)
	}
	wrong := r.dial("203.0.113.9")
	if e, ok := wrong.joinWith("class-ZZZZZZ", "guess", "").(*protocol.Error); !ok || e.Code != protocol.ErrCodeClass || !strings.HasPrefix(e.Text, "unknown class code") {
		t.Errorf("a wrong code got %+v, want ErrCodeClass \"unknown class code\"", wrong.got[len(wrong.got)-1])
	}
}

// TestClassCodeChanges: a teacher who asks for a new code is told it;
// the old code admits nobody more at once (refused as unknown), the
// students it let in stay, and the new one admits; a second teacher is
// told the code in force; a student cannot change it; when the last
// teacher leaves, the code goes with the class.
func TestClassCodeChanges(t *testing.T) {
	r := newRig(t, Options{})
	teacher := r.teacherIn("3b")
	old := codeOf(teacher)
	if !strings.HasPrefix(old, "3b-") {
		t.Fatalf("room 3b's code is %q, want it to begin 3b-", old)
	}
	in := r.dial(host(1))
	if _, ok := in.joinWith(old, "ada", "").(*protocol.Welcome); !ok {
		t.Fatalf("a student with the code got %+v", in.got[len(in.got)-1])
	}
	teacher.send(&protocol.ClassCode{})
	code := codeOf(teacher)
	if code == old || !strings.HasPrefix(code, "3b-") {
		t.Fatalf("the new code is %q (the old %q), want another of room 3b", code, old)
	}
	late := r.dial(host(2))
	if e, ok := late.joinWith(old, "bob", "").(*protocol.Error); !ok || e.Code != protocol.ErrCodeClass {
		t.Errorf("the old code got %+v, want it refused as unknown", late.got[len(late.got)-1])
	}
	if st := r.h.rooms["3b"].core.Stats(); st.Players != 1 {
		t.Errorf("room 3b has %d players after the code changed, want the student it let in", st.Players)
	}
	if _, ok := r.dial(host(2)).joinWith(code, "bob", "").(*protocol.Welcome); !ok {
		t.Error("the new code did not admit a student")
	}
	second := r.teacherIn("3b")
	if got := codeOf(second); got != code {
		t.Errorf("a second teacher was told %q, want the code in force %q", got, code)
	}
	in.send(&protocol.ClassCode{})
	if e := in.refusal("a student's ClassCode"); e.Code != protocol.ErrCodeTeacher {
		t.Errorf("a student asking for a new code got %+v, want ErrCodeTeacher", e)
	}
	teacher.gone("connection closed by the client")
	second.gone("connection closed by the client")
	if n := r.noted(NoteCode); len(n) == 0 || n[len(n)-1].Code != "" {
		t.Errorf("notes %+v: want the class's code ended with it", n)
	}
	after := r.dial(host(3))
	if e, ok := after.joinWith(code, "cy", "").(*protocol.Error); !ok || e.Code != protocol.ErrCodeClass {
		t.Errorf("the code of a class that ended got %+v, want it refused", after.got[len(after.got)-1])
	}
}

// TestWrongClassCodesRateLimited: an address may present CodeTries wrong
// codes; then even the right code is refused unread, "rate limited", so
// that guessing gets nowhere, until a try comes back (a minute's worth
// of tries a minute); another address is not held by it.
func TestWrongClassCodesRateLimited(t *testing.T) {
	r := newRig(t, Options{CodeTries: 5})
	code := codeOf(r.teacherIn(""))
	const prober = "203.0.113.66"
	for i := range 5 {
		p := r.dial(prober)
		if e, ok := p.joinWith("class-22222"+string(protocol.CodeAlphabet[i]), "x", "").(*protocol.Error); !ok || !strings.HasPrefix(e.Text, "unknown class code") {
			t.Fatalf("wrong code %d got %+v, want unknown", i+1, p.got[len(p.got)-1])
		}
	}
	p := r.dial(prober)
	if e, ok := p.joinWith(code, "x", "").(*protocol.Error); !ok || e.Code != protocol.ErrCodeClass || !strings.HasPrefix(e.Text, "rate limited: too many wrong class codes") {
		t.Fatalf("the right code after 5 wrong got %+v, want it refused unread, rate limited", p.got[len(p.got)-1])
	}
	if _, ok := r.dial("198.51.100.1").joinWith(code, "y", "").(*protocol.Error); ok {
		t.Error("another address was refused the right code")
	}
	r.advance(time.Minute / 5)
	if _, ok := r.dial(prober).joinWith(code, "z", "").(*protocol.Welcome); !ok {
		t.Error("the right code was refused after a try came back")
	}
	refused := 0
	for _, n := range r.noted(NoteRefused) {
		if n.Host == prober {
			refused++
			if strings.Contains(n.Reason, code) {
				t.Errorf("a refusal's reason %q names the class code", n.Reason)
			}
		}
	}
	if refused != 6 {
		t.Errorf("%d refusals noted for the prober, want 6", refused)
	}
}

// TestClassCodeOnlyFirst: a second Code is a protocol violation; a
// teacher of version 5 is never sent ClassCode.
func TestClassCodeOnlyFirst(t *testing.T) {
	r := newRig(t, Options{})
	code := codeOf(r.teacherIn(""))
	p := r.dial(host(1))
	p.send(&protocol.Code{Code: code})
	p.send(&protocol.Code{Code: code})
	if e := p.refusal("a second Code"); e.Code != protocol.ErrCodeProtocol {
		t.Errorf("a second Code got %+v, want a protocol violation", e)
	}
	old := r.dialFrom(Origin{Host: "192.0.2.251", Teacher: true})
	old.send(&protocol.Teach{Version: 5, Name: "babbage", Room: ""})
	r.advance(100 * ms)
	for _, m := range old.got {
		if _, ok := m.(*protocol.ClassCode); ok {
			t.Fatal("a teacher of version 5 was sent a ClassCode")
		}
	}
}
