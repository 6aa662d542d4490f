package record

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"gridlag/grid"
)

const ms = time.Millisecond

// sample writes a small lab recording and returns its bytes and events.
func sample(t testing.TB) ([]byte, []Event) {
	t.Helper()
	h := Header{Kind: KindLab, Gridlag: "test", Map: MapRows(grid.DefaultMap()), Lab: &Lab{
		Players: [2]Player{{Name: "Player 1", Start: [2]int{10, 10}, Latency: Duration(250 * ms), Presses: "right@0ms"},
			{Name: "Player 2", Start: [2]int{14, 10}, Latency: Duration(150 * ms)}},
		Seed: 1, Rate: 3, Speed: "1x", LagComp: true, Unlag: Duration(500 * ms)}}
	events := []Event{
		{At: 0, Kind: Sync, Who: Nobody},
		{At: 16 * ms, Kind: Press, Who: Player1, Arg: int64(grid.Right)},
		{At: 40 * ms, Kind: Reconcile, Who: Player2, Arg: 0},
		{At: 40 * ms, Kind: Loss, Who: Player1, Arg: int64(math.Float64bits(0.2))},
		{At: 120 * ms, Kind: Latency, Who: Player2, Arg: int64(300 * ms)},
		{At: 500 * ms, Kind: Deliver, Who: Player1, Data: []byte{0, 1, 9}},
		{At: 501 * ms, Kind: Rate, Who: Nobody, Arg: 20},
		CheckView{Ack: 3, Predicted: grid.Pos{X: 11, Y: 10}, Server: grid.Pos{X: 10, Y: 10}, Pending: 1, Others: 2, OthersSum: 77}.Event(502 * ms),
	}
	var buf bytes.Buffer
	w, err := NewWriter(&buf, h, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		if err := w.Write(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(time.Second); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), events
}

// TestRoundTrip: what a writer writes, a reader reads back: the header,
// every event with its time, the end and why it ended.
func TestRoundTrip(t *testing.T) {
	b, events := sample(t)
	rec, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rec.Events, events) {
		t.Fatalf("events\n%+v\nwant\n%+v", rec.Events, events)
	}
	if rec.End != time.Second || rec.Stop != StopDone || rec.Header.Lab.Players[0].Latency != Duration(250*ms) || rec.Version != 1 || rec.Size != int64(len(b)) {
		t.Fatalf("read %+v", rec)
	}
	if m, err := rec.Header.GridMap(); err != nil || m.String() != grid.DefaultMap().String() {
		t.Fatalf("the map did not come back: %v", err)
	}
	c, err := ParseCheck(rec.Events[len(rec.Events)-1])
	if err != nil || c.Predicted != (grid.Pos{X: 11, Y: 10}) || c.OthersSum != 77 || c.Ack != 3 {
		t.Fatalf("check %+v, %v", c, err)
	}
}

// TestTruncatedIsRefused: every prefix of a recording, from its first
// byte to its last but one, is refused as truncated, in one line that
// says so; none is half-read.
func TestTruncatedIsRefused(t *testing.T) {
	b, _ := sample(t)
	for n := 1; n < len(b); n++ {
		rec, err := Parse(b[:n])
		if rec != nil || !errors.Is(err, ErrTruncated) {
			t.Fatalf("the first %d of %d bytes: %v, %v; want truncated", n, len(b), rec, err)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Fatalf("more than one line: %q", err)
		}
	}
	_, err := Parse(b[:len(b)-40])
	if want := "recording refused: truncated after"; !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "without its end mark") {
		t.Fatalf("truncated in the middle: %q, want %q...", err, want)
	}
}

// TestCorruptedIsRefused: a recording with any one byte changed after its
// magic is refused, damaged (or, when the change cuts it, truncated), never
// read.
func TestCorruptedIsRefused(t *testing.T) {
	b, _ := sample(t)
	for i := len(magic); i < len(b); i++ {
		for _, flip := range []byte{1, 0x80, 0xff} {
			c := bytes.Clone(b)
			c[i] ^= flip
			rec, err := Parse(c)
			if rec != nil || err == nil {
				t.Fatalf("byte %d ^ %#x: read a damaged recording", i, flip)
			}
			if !errors.Is(err, ErrDamaged) && !errors.Is(err, ErrTruncated) && !errors.Is(err, ErrNewer) {
				t.Fatalf("byte %d ^ %#x: %v", i, flip, err)
			}
		}
	}
	c := bytes.Clone(b)
	c[len(c)-10] ^= 1 // in the events: the checksum catches it
	if _, err := Parse(c); !errors.Is(err, ErrDamaged) {
		t.Fatalf("a changed byte: %v", err)
	}
}

// TestNotARecordingAndNewer: a file that is not a recording, one whose
// magic a text transfer mangled, and one of a newer version are refused,
// each saying why.
func TestNotARecordingAndNewer(t *testing.T) {
	b, _ := sample(t)
	for _, c := range []struct {
		data []byte
		want error
		says string
	}{
		{[]byte("#####\n#...#\n"), ErrNotRecording, "not a gridlag recording"},
		{nil, ErrNotRecording, "not a gridlag recording"},
		{bytes.Replace(b[:40], []byte("\r\n"), []byte("\n"), 1), ErrDamaged, "copy it as binary"},
		{append(append([]byte(magic), binary.AppendUvarint(nil, Version+1)...), b[len(magic)+1:]...), ErrNewer,
			"made by a newer gridlag (recording version 2; this gridlag reads version 1): update gridlag"},
	} {
		_, err := Parse(c.data)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%q...: %v; want %v saying %q", c.data[:min(len(c.data), 12)], err, c.want, c.says)
		}
	}
	if _, err := Read(bytes.NewReader(b), int64(len(b)-1)); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over the reader's limit: %v", err)
	}
}

// TestWriterStopsAtItsBound: a writer bounded to a size writes events
// until the next would not fit, then refuses every event with ErrFull;
// the file never passes the bound and reads back, saying it stopped at
// its size limit, with the events that fitted.
func TestWriterStopsAtItsBound(t *testing.T) {
	h := Header{Kind: KindGame, Game: &Game{Name: "ada", Seed: 5}}
	const max = 2000
	var buf bytes.Buffer
	w, err := NewWriter(&buf, h, max)
	if err != nil {
		t.Fatal(err)
	}
	written := 0
	for i := range 1000 {
		err := w.Write(Event{At: time.Duration(i) * ms, Kind: Deliver, Data: bytes.Repeat([]byte{7}, 40)})
		if err == ErrFull {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		written++
	}
	if !w.Full() || w.Write(Event{At: time.Hour, Kind: Update}) != ErrFull {
		t.Fatal("the writer took more once full")
	}
	if err := w.Close(2 * time.Second); err != nil {
		t.Fatal(err)
	}
	if buf.Len() > max || buf.Len() < max-60 {
		t.Fatalf("a %d-byte bound gave %d bytes", max, buf.Len())
	}
	rec, err := Parse(buf.Bytes())
	if err != nil || rec.Stop != StopFull || len(rec.Events) != written || written < 20 {
		t.Fatalf("read back %d events (wrote %d), stop %v: %v", len(rec.Events), written, rec.Stop, err)
	}
	if _, err := NewWriter(&buf, h, 40); err == nil {
		t.Fatal("a bound smaller than the header was taken")
	}
}

// TestEventsOutOfRangeAreRefused: an event a replay could not play (a
// direction, switch, loss or player out of range; data where none goes)
// makes the recording damaged, and a writer will not write an unknown
// kind.
func TestEventsOutOfRangeAreRefused(t *testing.T) {
	h := Header{Kind: KindGame, Game: &Game{Name: "ada"}}
	for _, e := range []Event{
		{Kind: Press, Arg: 7},
		{Kind: Predict, Arg: 2},
		{Kind: Loss, Arg: int64(math.Float64bits(math.NaN()))},
		{Kind: Loss, Arg: int64(math.Float64bits(1.5))},
		{Kind: Zap, Who: 9},
		{Kind: Zap, Data: []byte{1}},
		{Kind: Deliver},
		{Kind: Check, Data: []byte{1, 2}},
	} {
		var buf bytes.Buffer
		w, _ := NewWriter(&buf, h, 0)
		if err := w.Write(e); err != nil {
			t.Fatal(err)
		}
		w.Close(0)
		if _, err := Parse(buf.Bytes()); !errors.Is(err, ErrDamaged) {
			t.Errorf("%+v: %v, want damaged", e, err)
		}
	}
	w, _ := NewWriter(new(bytes.Buffer), h, 0)
	if err := w.Write(Event{Kind: 200}); err == nil {
		t.Fatal("wrote an unknown kind")
	}
}

// FuzzParse: whatever the bytes, Parse returns a recording or a refusal,
// never panics, and a recording it returns writes back to bytes that
// parse to the same recording.
func FuzzParse(f *testing.F) {
	b, _ := sample(f)
	f.Add(b)
	f.Add(b[:len(b)/2])
	f.Add([]byte(magic))
	game := Header{Kind: KindGame, Game: &Game{Name: "ada", Seed: 3}}
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, game, 0)
	w.Write(Event{At: 5 * ms, Kind: Deliver, Data: []byte{0, 3, 2, 1, 1}})
	w.Write(Event{At: 6 * ms, Kind: Update})
	w.Close(7 * ms)
	f.Add(buf.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := Parse(data)
		if err != nil {
			var e *Error
			if rec != nil || !errors.As(err, &e) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("refusal %v with %v", err, rec)
			}
			return
		}
		var out bytes.Buffer
		w, err := NewWriter(&out, rec.Header, int64(len(data))+1<<20)
		if err != nil {
			t.Fatalf("a recording read does not write back: %v", err)
		}
		for _, e := range rec.Events {
			if err := w.Write(e); err != nil {
				t.Fatalf("event %+v does not write back: %v", e, err)
			}
		}
		w.Close(rec.End)
		again, err := Parse(out.Bytes())
		if err != nil || !reflect.DeepEqual(again.Events, rec.Events) || again.End != rec.End {
			t.Fatalf("written back, read %v (%v)", again, err)
		}
	})
}
