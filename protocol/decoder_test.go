package protocol_test

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"gridlag/grid"
	"gridlag/protocol"
)

// encodeAll writes msgs as one stream with an Encoder.
func encodeAll(t *testing.T, msgs ...protocol.Message) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := protocol.NewEncoder(&buf)
	for _, m := range msgs {
		if err := enc.Encode(m); err != nil {
			t.Fatalf("Encode(%#v): %v", m, err)
		}
	}
	if enc.BytesWritten != int64(buf.Len()) {
		t.Errorf("BytesWritten = %d, wrote %d", enc.BytesWritten, buf.Len())
	}
	return buf.Bytes()
}

func TestStreamRoundTrip(t *testing.T) {
	var msgs []protocol.Message
	for _, ex := range examples() {
		msgs = append(msgs, ex.msg)
	}
	stream := encodeAll(t, msgs...)
	// A socket hands over frames in arbitrary pieces: one byte at a time is
	// the worst case.
	for name, r := range map[string]io.Reader{
		"whole":    bytes.NewReader(stream),
		"one byte": iotest.OneByteReader(bytes.NewReader(stream)),
		"data+EOF": iotest.DataErrReader(bytes.NewReader(stream)),
	} {
		dec := protocol.NewDecoder(r)
		for i, want := range msgs {
			got, err := dec.Decode()
			if err != nil {
				t.Fatalf("%s: frame %d: %v", name, i, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: frame %d = %#v, want %#v", name, i, got, want)
			}
		}
		if m, err := dec.Decode(); err != io.EOF || m != nil {
			t.Errorf("%s: Decode at end = %v, %v; want io.EOF", name, m, err)
		}
		if dec.BytesRead != int64(len(stream)) {
			t.Errorf("%s: BytesRead = %d, want %d", name, dec.BytesRead, len(stream))
		}
	}
}

func TestDecoderCleanEOF(t *testing.T) {
	dec := protocol.NewDecoder(bytes.NewReader(nil))
	if _, err := dec.Decode(); err != io.EOF {
		t.Fatalf("Decode of an empty stream = %v, want io.EOF", err)
	}
	dec = protocol.NewDecoder(bytes.NewReader(encodeAll(t, &protocol.Ping{Stamp: 1})))
	if _, err := dec.Decode(); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if _, err := dec.Decode(); err != io.EOF {
			t.Fatalf("Decode after the last frame = %v, want io.EOF (call %d)", err, i+1)
		}
	}
}

func TestTruncatedFrame(t *testing.T) {
	for _, ex := range examples() {
		b := mustMarshal(t, ex.msg)
		for cut := 1; cut < len(b); cut++ {
			dec := protocol.NewDecoder(bytes.NewReader(b[:cut]))
			if m, err := dec.Decode(); err != io.ErrUnexpectedEOF || m != nil {
				t.Fatalf("Decode of %v cut to %d of %d bytes = %v, %v; want io.ErrUnexpectedEOF", ex.msg.Type(), cut, len(b), m, err)
			}
			if m, n, err := protocol.Unmarshal(b[:cut]); err != io.ErrUnexpectedEOF || m != nil || n != 0 {
				t.Fatalf("Unmarshal of %v cut to %d of %d bytes = %v, %d, %v; want io.ErrUnexpectedEOF", ex.msg.Type(), cut, len(b), m, n, err)
			}
		}
	}
	if _, _, err := protocol.Unmarshal(nil); err != io.ErrUnexpectedEOF {
		t.Errorf("Unmarshal(nil) = %v, want io.ErrUnexpectedEOF", err)
	}
}

// TestDecoderMaxFrame: a frame over the decoder's MaxFrame is refused as
// soon as its length is read, before its body comes; one at the limit
// is decoded.
func TestDecoderMaxFrame(t *testing.T) {
	hello := mustMarshal(t, &protocol.Hello{Version: protocol.Version, Name: "ann"})
	body := len(hello) - protocol.HeaderLen
	dec := protocol.NewDecoder(bytes.NewReader(hello))
	dec.MaxFrame = body
	if m, err := dec.Decode(); err != nil || m.Type() != protocol.TypeHello {
		t.Fatalf("a Hello of %d bytes with MaxFrame %d: %v, %v", body, body, m, err)
	}
	// "GE" read as a length is 18,245 bytes: only the two bytes come.
	dec = protocol.NewDecoder(strings.NewReader("GE"))
	dec.MaxFrame = 1024
	m, err := dec.Decode()
	var fe *protocol.FrameSizeError
	if !errors.As(err, &fe) || fe.Size != 0x4745 || fe.Max != 1024 || m != nil {
		t.Fatalf("a frame announcing %d bytes with MaxFrame 1024: %v, %v; want a FrameSizeError", 0x4745, m, err)
	}
	dec = protocol.NewDecoder(bytes.NewReader(hello))
	dec.MaxFrame = body - 1
	if _, err := dec.Decode(); !errors.As(err, &fe) || fe.Size != body {
		t.Errorf("a Hello of %d bytes with MaxFrame %d: %v, want a FrameSizeError", body, body-1, err)
	}
}

func TestDecoderPassesReadErrors(t *testing.T) {
	reset := errors.New("connection reset by peer")
	dec := protocol.NewDecoder(iotest.ErrReader(reset))
	if _, err := dec.Decode(); !errors.Is(err, reset) {
		t.Errorf("Decode = %v, want the reader's error", err)
	}
	b := mustMarshal(t, &protocol.Ping{Stamp: 1})
	dec = protocol.NewDecoder(io.MultiReader(bytes.NewReader(b[:5]), iotest.ErrReader(reset)))
	if _, err := dec.Decode(); !errors.Is(err, reset) {
		t.Errorf("Decode failing mid-frame = %v, want the reader's error", err)
	}
}

// badFrame is a frame that must not decode, and the sentinel it must give.
type badFrame struct {
	name string
	data []byte
	want error
	// typ is the message type the error must name, "" for errors found
	// before the type is known.
	typ string
}

func badFrames() []badFrame {
	hello := func(bot byte, name string) []byte {
		return frame(byte(protocol.TypeHello), u16(protocol.Version), []byte{bot, 0}, str(name))
	}
	welcome := func(player, w, h uint16, cells string) []byte {
		return frame(byte(protocol.TypeWelcome), u16(player), u16(20), u16(100), []byte{4}, u16(w), u16(h), []byte(cells), u16(0), token(7), u16(30))
	}
	state := func(count uint16, rest ...[]byte) []byte {
		return frame(byte(protocol.TypeState), u32(1), u64(2), u32(3), []byte{0}, u16(count), cat(rest...), u16(0))
	}
	spectating := func(w, h uint16, cells string) []byte {
		return frame(byte(protocol.TypeSpectating), u16(20), u16(100), []byte{4}, u16(w), u16(h), []byte(cells))
	}
	overview := func(total, count uint16, rest ...[]byte) []byte {
		return frame(byte(protocol.TypeOverview), u32(1), u64(2), u16(total), u16(count), cat(rest...))
	}
	seen := func(id uint16) []byte { return cat(u16(id), []byte{0}, u16(2), u16(3), u32(4), u16(5)) }
	return []badFrame{
		{"zero length", []byte{0, 0}, protocol.ErrEmptyFrame, ""},
		{"type 0", frame(0), protocol.ErrUnknownType, ""},
		{"type 48", frame(48, u64(1)), protocol.ErrUnknownType, ""},
		{"teach short", frame(byte(protocol.TypeTeach), u16(5)), protocol.ErrShort, "Teach"},
		{"teach empty room", frame(byte(protocol.TypeTeach), u16(5), str("t"), str("")), protocol.ErrTrailing, "Teach"},
		{"conditions hold 3", frame(byte(protocol.TypeConditions), []byte{1}, u16(300), u16(0), u16(0), []byte{3}, u16(20), []byte{1}), protocol.ErrBadValue, "Conditions"},
		{"conditions high bits", frame(byte(protocol.TypeConditions), []byte{1}, u16(300), u16(0), u16(0), []byte{0x80}, u16(20), []byte{1}), protocol.ErrBadValue, "Conditions"},
		{"conditions loss over all", frame(byte(protocol.TypeConditions), []byte{1}, u16(300), u16(0), u16(10001), []byte{0}, u16(20), []byte{1}), protocol.ErrBadValue, "Conditions"},
		{"conditions bool 2", frame(byte(protocol.TypeConditions), []byte{1}, u16(300), u16(0), u16(0), []byte{0}, u16(20), []byte{2}), protocol.ErrBadValue, "Conditions"},
		{"conditions v6 trace cut", frame(byte(protocol.TypeConditions), []byte{1}, u16(300), u16(0), u16(0), []byte{0}, u16(20), []byte{1, 0}), protocol.ErrShort, "Conditions"},
		{"conditions v6 empty trace", frame(byte(protocol.TypeConditions), []byte{1}, u16(300), u16(0), u16(0), []byte{0}, u16(20), []byte{1, 0, 0}), protocol.ErrBadValue, "Conditions"},
		{"conditions v6 trailing", frame(byte(protocol.TypeConditions), []byte{1}, u16(300), u16(0), u16(0), []byte{0}, u16(20), []byte{1, 1, 'a', 0, 0}), protocol.ErrTrailing, "Conditions"},
		{"traces past end", frame(byte(protocol.TypeTraces), []byte{2, 1, 'a', 0}), protocol.ErrBadValue, "Traces"},
		{"report short", frame(byte(protocol.TypeReport), u16(1), u32(2)), protocol.ErrShort, "Report"},
		{"class count past end", frame(byte(protocol.TypeClass), u16(2), u16(1), u16(2), u16(3), u32(4)), protocol.ErrShort, "Class"},
		{"class student 0", frame(byte(protocol.TypeClass), u16(1), u16(0), u16(2), u16(3), u32(4)), protocol.ErrBadValue, "Class"},
		{"type 255", frame(255), protocol.ErrUnknownType, ""},
		{"trace bool 2", frame(byte(protocol.TypeTrace), []byte{2}), protocol.ErrBadValue, "Trace"},
		{"stages none", frame(byte(protocol.TypeStages), []byte{0}), protocol.ErrBadValue, "Stages"},
		{"stages count past end", frame(byte(protocol.TypeStages), []byte{2}, uv(7), []byte{1}, uv(9), uv(0)), protocol.ErrShort, "Stages"},
		{"stages seq repeated", frame(byte(protocol.TypeStages), []byte{2}, uv(7), []byte{1}, uv(9), uv(0), uv(0), []byte{1}, uv(9), uv(0)), protocol.ErrBadValue, "Stages"},
		{"stages unknown outcome", frame(byte(protocol.TypeStages), []byte{1}, uv(7), []byte{9}, uv(9), uv(0)), protocol.ErrBadValue, "Stages"},
		{"stages applied before arrival", frame(byte(protocol.TypeStages), []byte{1}, uv(7), []byte{1}, uv(9), uv(10)), protocol.ErrBadValue, "Stages"},
		{"stages varint not shortest", frame(byte(protocol.TypeStages), []byte{1}, []byte{0x87, 0}, []byte{1}, uv(9), uv(0)), protocol.ErrBadValue, "Stages"},
		{"queued place 0", frame(byte(protocol.TypeQueued), u32(0), u32(5), u32(1000)), protocol.ErrBadValue, "Queued"},
		{"queued place past the line", frame(byte(protocol.TypeQueued), u32(6), u32(5), u32(1000)), protocol.ErrBadValue, "Queued"},
		{"queued short", frame(byte(protocol.TypeQueued), u32(1), u32(5)), protocol.ErrShort, "Queued"},
		{"admission wait without a line", frame(byte(protocol.TypeAdmission), u16(32), u16(60), u32(0)), protocol.ErrBadValue, "Admission"},
		{"admission short", frame(byte(protocol.TypeAdmission), u16(32), u16(60)), protocol.ErrShort, "Admission"},
		{"stages trailing", frame(byte(protocol.TypeStages), []byte{1}, uv(7), []byte{1}, uv(9), uv(0), []byte{0}), protocol.ErrTrailing, "Stages"},
		{"perceive action 0", frame(byte(protocol.TypePerceive), []byte{0, 1, 1, 0}, u16(6000), u16(6000), []byte{1}, u16(0)), protocol.ErrBadValue, "Perceive"},
		{"perceive levels falling", frame(byte(protocol.TypePerceive), []byte{1, 1, 1, 0}, u16(6000), u16(6000), []byte{2}, u16(100), u16(50)), protocol.ErrBadValue, "Perceive"},
		{"perceive levels past end", frame(byte(protocol.TypePerceive), []byte{1, 1, 1, 0}, u16(6000), u16(6000), []byte{3}, u16(0)), protocol.ErrShort, "Perceive"},
		{"perceive stop with settings", frame(byte(protocol.TypePerceive), []byte{2, 1, 0, 0}, u16(0), u16(0), []byte{0}), protocol.ErrBadValue, "Perceive"},
		{"trial phase 0", frame(byte(protocol.TypeTrial), u16(1), u16(1), u16(18), []byte{0}, u16(6000), []byte{1, 0}), protocol.ErrBadValue, "Trial"},
		{"trial results while playing", frame(byte(protocol.TypeTrial), u16(1), u16(1), u16(18), []byte{1}, u16(6000), []byte{1, 1}, u16(50), []byte{5}), protocol.ErrBadValue, "Trial"},
		{"trial result answer 3", frame(byte(protocol.TypeTrial), u16(1), u16(0), u16(18), []byte{3}, u16(0), []byte{0, 1}, u16(50), []byte{7}), protocol.ErrBadValue, "Trial"},
		{"answer verdict 0", frame(byte(protocol.TypeAnswer), u16(1), u16(2), []byte{0}), protocol.ErrBadValue, "Answer"},
		{"answer trailing", frame(byte(protocol.TypeAnswer), u16(1), u16(2), []byte{1, 0}), protocol.ErrTrailing, "Answer"},
		{"perception waiting 0", frame(byte(protocol.TypePerception), u16(1), u16(1), u16(18), []byte{2}, u16(6000), []byte{1}, u16(3), u16(1), u16(0), str(""), u16(0), u16(0)), protocol.ErrBadValue, "Perception"},
		{"perception trial past end", frame(byte(protocol.TypePerception), u16(1), u16(0), u16(18), []byte{3}, u16(0), []byte{1}, u16(3), u16(0), str(""), u16(2), u16(1), u16(1), u16(4), []byte{3}, u16(0), u16(0)), protocol.ErrShort, "Perception"},
		{"crowd bool 2", frame(byte(protocol.TypeCrowd), u16(100), []byte{2}), protocol.ErrBadValue, "Crowd"},
		{"crowd trailing", frame(byte(protocol.TypeCrowd), u16(100), []byte{0, 0}), protocol.ErrTrailing, "Crowd"},
		{"crowded given over asked", frame(byte(protocol.TypeCrowded), u16(10), u16(11), u16(0), u16(100), []byte{0}, str("")), protocol.ErrBadValue, "Crowded"},
		{"crowded given over the most", frame(byte(protocol.TypeCrowded), u16(100), u16(40), u16(0), u16(32), []byte{0}, str("")), protocol.ErrBadValue, "Crowded"},
		{"crowded note past end", frame(byte(protocol.TypeCrowded), u16(10), u16(10), u16(0), u16(100), []byte{0}, []byte{9}), protocol.ErrShort, "Crowded"},
		{"counters short", frame(byte(protocol.TypeCounters), u32(1000), u32(0), u32(0)), protocol.ErrShort, "Counters"},
		{"counters trailing", frame(byte(protocol.TypeCounters), make([]byte, 48), []byte{0}), protocol.ErrTrailing, "Counters"},
		{"hello short", frame(byte(protocol.TypeHello), u16(1)), protocol.ErrShort, "Hello"},
		{"hello bool 2", hello(2, "ada"), protocol.ErrBadValue, "Hello"},
		{"hello bad UTF-8", hello(0, "a\xffb"), protocol.ErrBadUTF8, "Hello"},
		{"hello surrogate", hello(0, "\xed\xa0\x80"), protocol.ErrBadUTF8, "Hello"},
		{"hello string past end", frame(byte(protocol.TypeHello), u16(1), []byte{0, 0, 9}, []byte("ada")), protocol.ErrShort, "Hello"},
		{"hello trailing", frame(byte(protocol.TypeHello), u16(1), []byte{0, 0}, str("ada"), []byte{0}), protocol.ErrTrailing, "Hello"},
		{"welcome player 0", welcome(0, 1, 1, "."), protocol.ErrBadValue, "Welcome"},
		{"welcome map 0x0", welcome(1, 0, 0, ""), protocol.ErrBadValue, "Welcome"},
		{"welcome map too wide", welcome(1, grid.MaxMapSide+1, 1, strings.Repeat(".", grid.MaxMapSide+1)), protocol.ErrBadValue, "Welcome"},
		{"welcome bad cell", welcome(1, 2, 1, "#x"), protocol.ErrBadValue, "Welcome"},
		{"welcome huge map", welcome(1, 0xffff, 0xffff, "...."), protocol.ErrBadValue, "Welcome"},
		{"welcome huge player count", frame(byte(protocol.TypeWelcome), u16(1), u16(20), u16(100), []byte{4}, u16(1), u16(1), []byte("."), u16(0xffff)), protocol.ErrShort, "Welcome"},
		{"welcome info ID 0", frame(byte(protocol.TypeWelcome), u16(1), u16(20), u16(100), []byte{4}, u16(1), u16(1), []byte("."), u16(1), u16(0), []byte{1}, str("x")), protocol.ErrBadValue, "Welcome"},
		{"error bad UTF-8", frame(byte(protocol.TypeError), []byte{1}, str("\xc3\x28")), protocol.ErrBadUTF8, "Error"},
		{"input dir none", frame(byte(protocol.TypeInput), u32(1), []byte{0}), protocol.ErrBadValue, "Input"},
		{"input dir 5", frame(byte(protocol.TypeInput), u32(1), []byte{5}), protocol.ErrBadValue, "Input"},
		{"input short", frame(byte(protocol.TypeInput), u32(1)), protocol.ErrShort, "Input"},
		{"input trailing", frame(byte(protocol.TypeInput), u32(1), []byte{1, 0}), protocol.ErrTrailing, "Input"},
		{"state huge count", state(0xffff), protocol.ErrShort, "State"},
		{"state count too small", state(1, u16(1), u16(2), u16(3), u16(2), u16(3), u16(4)), protocol.ErrTrailing, "State"},
		{"state player 0", state(1, u16(0), u16(2), u16(3)), protocol.ErrBadValue, "State"},
		{"state short header", frame(byte(protocol.TypeState), u32(1)), protocol.ErrShort, "State"},
		{"ping trailing", frame(byte(protocol.TypePing), u64(1), []byte{0}), protocol.ErrTrailing, "Ping"},
		{"pong short", frame(byte(protocol.TypePong), u32(1)), protocol.ErrShort, "Pong"},
		{"bye no payload", frame(byte(protocol.TypeBye)), protocol.ErrShort, "Bye"},
		{"join ID 0", frame(byte(protocol.TypeJoin), u16(0), []byte{1}, str("x")), protocol.ErrBadValue, "Join"},
		{"leave ID 0", frame(byte(protocol.TypeLeave), u16(0)), protocol.ErrBadValue, "Leave"},
		{"leave trailing", frame(byte(protocol.TypeLeave), u16(1), u16(2)), protocol.ErrTrailing, "Leave"},
		{"spectate bad UTF-8", frame(byte(protocol.TypeSpectate), u16(1), str("\xff")), protocol.ErrBadUTF8, "Spectate"},
		{"spectate short", frame(byte(protocol.TypeSpectate), u16(1)), protocol.ErrShort, "Spectate"},
		{"spectating bad cell", spectating(2, 1, "#x"), protocol.ErrBadValue, "Spectating"},
		{"spectating map 0x0", spectating(0, 0, ""), protocol.ErrBadValue, "Spectating"},
		{"spectating huge map", spectating(0xffff, 0xffff, "...."), protocol.ErrBadValue, "Spectating"},
		{"spectating trailing", spectating(1, 1, ".."), protocol.ErrTrailing, "Spectating"},
		{"overview huge count", overview(0xffff, 0xffff), protocol.ErrShort, "Overview"},
		{"overview count too small", overview(2, 1, seen(1), seen(2)), protocol.ErrTrailing, "Overview"},
		{"overview more listed than in all", overview(1, 2, seen(1), seen(2)), protocol.ErrBadValue, "Overview"},
		{"overview player 0", overview(1, 1, seen(0)), protocol.ErrBadValue, "Overview"},
		{"overview bool 2", overview(1, 1, cat(u16(1), []byte{2}, u16(2), u16(3), u32(4), u16(5))), protocol.ErrBadValue, "Overview"},
		{"overview short header", frame(byte(protocol.TypeOverview), u32(1), u64(2)), protocol.ErrShort, "Overview"},
	}
}

func TestBadFramesGiveSentinelErrors(t *testing.T) {
	for _, bf := range badFrames() {
		t.Run(bf.name, func(t *testing.T) {
			m, n, err := protocol.Unmarshal(bf.data)
			if !errors.Is(err, bf.want) || m != nil {
				t.Fatalf("Unmarshal(%x) = %#v, %v; want an error wrapping %q", bf.data, m, err, bf.want)
			}
			if n != len(bf.data) {
				t.Errorf("Unmarshal took %d bytes of a %d-byte frame", n, len(bf.data))
			}
			if !strings.HasPrefix(err.Error(), "protocol: ") || !strings.Contains(err.Error(), bf.typ) {
				t.Errorf("error %q should start with \"protocol: \" and name the message type %q", err, bf.typ)
			}
			if _, err := protocol.NewDecoder(bytes.NewReader(bf.data)).Decode(); !errors.Is(err, bf.want) {
				t.Errorf("Decode = %v, want an error wrapping %q", err, bf.want)
			}
		})
	}
}

// TestBadFrameKeepsStreamInStep: a frame that does not decode is consumed
// whole, so a server that chooses to ignore it reads the next frame right.
func TestBadFrameKeepsStreamInStep(t *testing.T) {
	next := &protocol.Input{Seq: 42, Dir: grid.Left}
	for _, bf := range badFrames() {
		stream := append(append(encodeAll(t, &protocol.Ping{Stamp: 7}), bf.data...), mustMarshal(t, next)...)
		dec := protocol.NewDecoder(bytes.NewReader(stream))
		if m, err := dec.Decode(); err != nil || !reflect.DeepEqual(m, &protocol.Ping{Stamp: 7}) {
			t.Fatalf("%s: first frame = %#v, %v", bf.name, m, err)
		}
		if _, err := dec.Decode(); !errors.Is(err, bf.want) {
			t.Fatalf("%s: bad frame gave %v, want %q", bf.name, err, bf.want)
		}
		if m, err := dec.Decode(); err != nil || !reflect.DeepEqual(m, next) {
			t.Fatalf("%s: frame after the bad one = %#v, %v; want %#v", bf.name, m, err, next)
		}
		if _, err := dec.Decode(); err != io.EOF {
			t.Fatalf("%s: end = %v, want io.EOF", bf.name, err)
		}
		if dec.BytesRead != int64(len(stream)) {
			t.Errorf("%s: BytesRead = %d, want %d (bad frames count too)", bf.name, dec.BytesRead, len(stream))
		}
	}
}

// TestDecodedMessagesOwnTheirBytes: the decoder reuses its buffer, so a
// message must not point into it, or the next frame would rewrite a name or
// a map the game still holds.
func TestDecodedMessagesOwnTheirBytes(t *testing.T) {
	first := &protocol.Welcome{Player: 1, MapWidth: 3, MapHeight: 1, Cells: []byte("#.#"), Players: []protocol.PlayerInfo{{ID: 1, Name: "aaaa"}}}
	second := &protocol.Welcome{Player: 2, MapWidth: 3, MapHeight: 1, Cells: []byte(".#."), Players: []protocol.PlayerInfo{{ID: 2, Name: "bbbb"}}}
	dec := protocol.NewDecoder(bytes.NewReader(encodeAll(t, first, second, &protocol.Hello{Name: "cccc"})))
	m1, err := dec.Decode()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if _, err := dec.Decode(); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(m1, first) {
		t.Errorf("first message changed when later frames were read: %#v", m1)
	}
}

func TestEncodeTooLarge(t *testing.T) {
	// The largest State: 22 bytes of type, header, flags and the two
	// counts, 6 per player.
	most := (protocol.MaxFrame - 22) / 6
	st := &protocol.State{Players: make([]grid.PlayerPos, most)}
	for i := range st.Players {
		st.Players[i] = grid.PlayerPos{ID: grid.PlayerID(i + 1), Pos: grid.Pos{X: i % 100, Y: i / 100}}
	}
	b := mustMarshal(t, st)
	if m, _, err := protocol.Unmarshal(b); err != nil || !reflect.DeepEqual(m, st) {
		t.Fatalf("largest State does not round-trip: %v", err)
	}
	st.Players = append(st.Players, grid.PlayerPos{ID: 0xffff})
	checkTooLarge(t, st)

	// A Welcome whose body is exactly MaxFrame bytes encodes; one byte more
	// does not. Body: 1 type, 13 header, 255*255 cells, 2 count, two
	// players of 3+235 bytes, and 18 of token and resume window.
	w := &protocol.Welcome{Player: 1, MapWidth: 255, MapHeight: 255, Cells: bytes.Repeat([]byte("."), 255*255),
		Players: []protocol.PlayerInfo{{ID: 1, Name: strings.Repeat("a", 235)}, {ID: 2, Name: strings.Repeat("b", 235)}}}
	b = mustMarshal(t, w)
	if len(b) != protocol.HeaderLen+protocol.MaxFrame {
		t.Fatalf("Welcome frame is %d bytes, want %d", len(b), protocol.HeaderLen+protocol.MaxFrame)
	}
	dec := protocol.NewDecoder(bytes.NewReader(b))
	if m, err := dec.Decode(); err != nil || !reflect.DeepEqual(m, w) {
		t.Fatalf("Welcome of MaxFrame bytes does not round-trip: %v", err)
	}
	w.Players[1].Name += "b"
	checkTooLarge(t, w)
}

// checkTooLarge checks that m cannot be encoded because of its size, and that
// a failed encode leaves the destination and the stream untouched.
func checkTooLarge(t *testing.T, m protocol.Message) {
	t.Helper()
	if b, err := protocol.Marshal(m); !errors.Is(err, protocol.ErrTooLarge) || len(b) != 0 {
		t.Fatalf("Marshal of an oversized %v = %d bytes, %v; want ErrTooLarge", m.Type(), len(b), err)
	}
	prefix := []byte("keep")
	if b, err := protocol.Append(prefix, m); err == nil || string(b) != "keep" {
		t.Errorf("Append of an oversized %v returned %q, %v; want the destination unchanged", m.Type(), b, err)
	}
	var buf bytes.Buffer
	enc := protocol.NewEncoder(&buf)
	if err := enc.Encode(m); !errors.Is(err, protocol.ErrTooLarge) {
		t.Errorf("Encode of an oversized %v = %v, want ErrTooLarge", m.Type(), err)
	}
	if buf.Len() != 0 || enc.BytesWritten != 0 {
		t.Errorf("failed Encode wrote %d bytes (BytesWritten %d)", buf.Len(), enc.BytesWritten)
	}
	if err := enc.Encode(&protocol.Ping{Stamp: 1}); err != nil || buf.Len() != 11 {
		t.Errorf("Encode after a failed one: %v, %d bytes", err, buf.Len())
	}
}

func TestEncodeBadValues(t *testing.T) {
	cells := []byte("...")
	for _, c := range []struct {
		name string
		msg  protocol.Message
		want error
	}{
		{"input dir none", &protocol.Input{Seq: 1, Dir: grid.None}, protocol.ErrBadValue},
		{"input dir 5", &protocol.Input{Seq: 1, Dir: 5}, protocol.ErrBadValue},
		{"hello name 256 bytes", &protocol.Hello{Name: strings.Repeat("x", 256)}, protocol.ErrBadValue},
		{"hello bad UTF-8", &protocol.Hello{Name: "\xff"}, protocol.ErrBadUTF8},
		{"welcome player 0", &protocol.Welcome{MapWidth: 3, MapHeight: 1, Cells: cells}, protocol.ErrBadValue},
		{"welcome cells mismatch", &protocol.Welcome{Player: 1, MapWidth: 2, MapHeight: 1, Cells: cells}, protocol.ErrBadValue},
		{"welcome bad cell", &protocol.Welcome{Player: 1, MapWidth: 3, MapHeight: 1, Cells: []byte(".x.")}, protocol.ErrBadValue},
		{"welcome info ID 0", &protocol.Welcome{Player: 1, MapWidth: 3, MapHeight: 1, Cells: cells, Players: []protocol.PlayerInfo{{Name: "x"}}}, protocol.ErrBadValue},
		{"welcome 65536 players", &protocol.Welcome{Player: 1, MapWidth: 3, MapHeight: 1, Cells: cells, Players: make([]protocol.PlayerInfo, 1<<16)}, protocol.ErrBadValue},
		{"error bad UTF-8", &protocol.Error{Text: "\xc3\x28"}, protocol.ErrBadUTF8},
		{"state player 0", &protocol.State{Players: []grid.PlayerPos{{ID: 0}}}, protocol.ErrBadValue},
		{"state negative x", &protocol.State{Players: []grid.PlayerPos{{ID: 1, Pos: grid.Pos{X: -1}}}}, protocol.ErrBadValue},
		{"state y 65536", &protocol.State{Players: []grid.PlayerPos{{ID: 1, Pos: grid.Pos{Y: 1 << 16}}}}, protocol.ErrBadValue},
		{"state 65536 players", &protocol.State{Players: make([]grid.PlayerPos, 1<<16)}, protocol.ErrBadValue},
		{"bye long reason", &protocol.Bye{Reason: strings.Repeat("é", 128)}, protocol.ErrBadValue},
		{"join ID 0", &protocol.Join{Player: protocol.PlayerInfo{Name: "x"}}, protocol.ErrBadValue},
		{"leave ID 0", &protocol.Leave{}, protocol.ErrBadValue},
		{"spectate bad UTF-8", &protocol.Spectate{Name: "\xff"}, protocol.ErrBadUTF8},
		{"spectating cells mismatch", &protocol.Spectating{MapWidth: 2, MapHeight: 1, Cells: cells}, protocol.ErrBadValue},
		{"overview player 0", &protocol.Overview{Total: 1, Players: []protocol.OverviewPlayer{{ID: 0}}}, protocol.ErrBadValue},
		{"overview negative y", &protocol.Overview{Total: 1, Players: []protocol.OverviewPlayer{{ID: 1, Pos: grid.Pos{Y: -1}}}}, protocol.ErrBadValue},
		{"overview more listed than in all", &protocol.Overview{Total: 0, Players: []protocol.OverviewPlayer{{ID: 1}}}, protocol.ErrBadValue},
	} {
		b, err := protocol.Marshal(c.msg)
		if !errors.Is(err, c.want) || len(b) != 0 {
			t.Errorf("%s: Marshal = %d bytes, %v; want an error wrapping %q", c.name, len(b), err, c.want)
			continue
		}
		if !strings.HasPrefix(err.Error(), "protocol: encode "+c.msg.Type().String()) {
			t.Errorf("%s: error %q should name the message type", c.name, err)
		}
	}
}

// writeCounter counts Write calls.
type writeCounter struct {
	writes int
	bytes.Buffer
}

func (w *writeCounter) Write(p []byte) (int, error) {
	w.writes++
	return w.Buffer.Write(p)
}

// failWriter accepts n bytes, then fails.
type failWriter struct{ n int }

var errDiskFull = errors.New("no space left on device")

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, errDiskFull
	}
	w.n -= len(p)
	return len(p), nil
}

func TestEncoderWrites(t *testing.T) {
	var w writeCounter
	enc := protocol.NewEncoder(&w)
	for i, ex := range examples() {
		if err := enc.Encode(ex.msg); err != nil {
			t.Fatal(err)
		}
		if w.writes != i+1 {
			t.Fatalf("after %d frames the encoder made %d Write calls; want one per frame", i+1, w.writes)
		}
	}
	fw := &failWriter{n: 12}
	enc = protocol.NewEncoder(fw)
	if err := enc.Encode(&protocol.Ping{Stamp: 1}); err != nil {
		t.Fatal(err)
	}
	if err := enc.Encode(&protocol.Ping{Stamp: 2}); !errors.Is(err, errDiskFull) {
		t.Errorf("Encode to a failing writer = %v, want its error", err)
	}
	if enc.BytesWritten != 12 {
		t.Errorf("BytesWritten = %d, want the 12 bytes the writer took", enc.BytesWritten)
	}
}

// reservedTypes are numbers of version 6 kept for another branch's
// messages: none now.
var reservedTypes = map[protocol.Type]bool{}

func TestTypes(t *testing.T) {
	names := map[string]bool{}
	want := protocol.Type(1)
	for _, typ := range allTypes {
		if want == protocol.TypeStateStep {
			want++ // a frame type, not a message type
		}
		for reservedTypes[want] {
			want++ // another branch's
		}
		if typ != want {
			t.Errorf("%v is numbered %d, want %d: wire numbers never change", typ, typ, want)
		}
		want++
		m := protocol.New(typ)
		if m == nil || m.Type() != typ {
			t.Errorf("New(%d) = %#v", typ, m)
		}
		name := typ.String()
		if names[name] || strings.HasPrefix(name, "Type(") {
			t.Errorf("type %d has name %q", typ, name)
		}
		names[name] = true
	}
	for _, typ := range []protocol.Type{0, protocol.TypeStateStep, want, 255} {
		if m := protocol.New(typ); m != nil {
			t.Errorf("New(%d) = %#v, want nil", typ, m)
		}
	}
	if got := protocol.Type(200).String(); got != "Type(200)" {
		t.Errorf("Type(200).String() = %q", got)
	}
}

func TestWelcomeMap(t *testing.T) {
	w := examples()[1].msg.(*protocol.Welcome)
	m, err := w.Map()
	if err != nil {
		t.Fatal(err)
	}
	if m.Width() != 5 || m.Height() != 3 || !bytes.Equal(m.Cells(), smallCells) {
		t.Errorf("Map() = %dx%d %q", m.Width(), m.Height(), m.Cells())
	}
	if !m.Wall(grid.Pos{X: 0, Y: 0}) || m.Wall(grid.Pos{X: 2, Y: 1}) {
		t.Error("Map() has walls in the wrong places")
	}
}

// TestErrorIsAnError: an Error reads as the server's sentence, with no
// number a person could not make sense of; an empty one says what its
// code means, in words.
func TestErrorIsAnError(t *testing.T) {
	var err error = &protocol.Error{Code: protocol.ErrCodeFull, Text: "server is full"}
	if got := err.Error(); got != "server is full" {
		t.Errorf("Error() = %q, want the text alone", got)
	}
	for code := uint8(0); code < 12; code++ {
		got := (&protocol.Error{Code: code}).Error()
		if got == "" || strings.ContainsAny(got, "0123456789") {
			t.Errorf("Error() of code %d without text = %q, want words", code, got)
		}
	}
}

func TestSupportedVersions(t *testing.T) {
	for v, want := range map[uint16]bool{0: false, 2: false, 3: true, 4: true, 5: true, 6: true, 7: false, 0xffff: false} {
		if got := protocol.Supported(v); got != want {
			t.Errorf("Supported(%d) = %v, want %v", v, got, want)
		}
	}
	if protocol.MinVersion != 3 || protocol.Version != 6 {
		t.Errorf("versions %d to %d, want 3 to 6", protocol.MinVersion, protocol.Version)
	}
}
