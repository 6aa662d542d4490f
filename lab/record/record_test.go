package record

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
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
		{At: 40 * ms, Kind: Preset, Who: Player1},
		{At: 120 * ms, Kind: Latency, Who: Player2, Arg: int64(300 * ms)},
		{At: 500 * ms, Kind: Spike, Who: Player1},
		{At: 501 * ms, Kind: Rate, Who: Nobody, Arg: 20},
		{At: 502 * ms, Kind: Zap, Who: Player2},
		{At: 1200 * ms, Kind: Press, Who: Player1, Arg: int64(grid.Down)}, // a flush mark before it
		{At: 1300 * ms, Kind: Press, Who: Player2, Arg: int64(grid.Up)},
		{At: 2400 * ms, Kind: Zap, Who: Player1}, // and another
	}
	return write(t, h, events, 3*time.Second), events
}

// gameSample writes a small game recording and returns its bytes and
// events.
func gameSample(t testing.TB) ([]byte, []Event) {
	t.Helper()
	h := Header{Kind: KindGame, Gridlag: "test", Game: &Game{Name: "ada", Seed: 3, Latency: Duration(100 * ms)}}
	events := []Event{
		{At: 5 * ms, Kind: Deliver, Who: Player1, Data: []byte{0, 3, 2, 1, 1}},
		{At: 6 * ms, Kind: Update},
		{At: 7 * ms, Kind: Press, Arg: int64(grid.Up)},
		{At: 7 * ms, Kind: Sent, Data: []byte{0, 2, 9, 9}},
		{At: 9 * ms, Kind: Interpolate, Arg: 1},
		CheckView{Ack: 3, Predicted: grid.Pos{X: 11, Y: 10}, Server: grid.Pos{X: 10, Y: 10}, Pending: 1, Others: 2, OthersSum: 77}.Event(502 * ms),
	}
	return write(t, h, events, time.Second), events
}

// write writes a recording of h and events, ending at end, and returns
// its bytes. The events go in unchecked: a test writes what no writer
// would.
func write(t testing.TB, h Header, events []Event, end time.Duration) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, h, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		if err := w.append(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(end); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestRoundTrip: what a writer writes, a reader reads back: the header,
// every event with its time, the end and why it ended.
func TestRoundTrip(t *testing.T) {
	b, events := sample(t)
	for _, e := range events {
		if err := (&Writer{h: Header{Kind: KindLab, Lab: &Lab{}}}).h.allows(e); err != nil {
			t.Fatalf("the sample's %+v is not a lab's: %v", e, err)
		}
	}
	rec, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if got := slices.Collect(rec.Events()); !reflect.DeepEqual(got, events) || rec.Count != len(events) {
		t.Fatalf("events (%d)\n%+v\nwant\n%+v", rec.Count, got, events)
	}
	if rec.End != 3*time.Second || rec.Stop != StopDone || rec.Header.Lab.Players[0].Latency != Duration(250*ms) || rec.Version != Version || rec.Size != int64(len(b)) {
		t.Fatalf("read %+v", rec)
	}
	if m, err := rec.Header.GridMap(); err != nil || m.String() != grid.DefaultMap().String() {
		t.Fatalf("the map did not come back: %v", err)
	}
	b, events = gameSample(t)
	rec, err = Read(bytes.NewReader(b), 0)
	if err != nil {
		t.Fatal(err)
	}
	got := slices.Collect(rec.Events())
	if !reflect.DeepEqual(got, events) || rec.Size != int64(len(b)) || rec.Header.Game.Name != "ada" {
		t.Fatalf("events\n%+v\nwant\n%+v", got, events)
	}
	c, err := ParseCheck(got[len(got)-1])
	if err != nil || c.Predicted != (grid.Pos{X: 11, Y: 10}) || c.OthersSum != 77 || c.Ack != 3 {
		t.Fatalf("check %+v, %v", c, err)
	}
	cur := rec.Cursor()
	for i, want := range events {
		if e, ok := cur.Peek(); !ok || !reflect.DeepEqual(e, want) {
			t.Fatalf("peek %d: %+v, want %+v", i, e, want)
		}
		if e, ok := cur.Next(); !ok || !reflect.DeepEqual(e, want) || cur.Index() != i+1 {
			t.Fatalf("next %d: %+v, want %+v", i, e, want)
		}
	}
	if _, ok := cur.Next(); ok {
		t.Fatal("the cursor went past the last event")
	}
}

// headerEnd returns where b's events start.
func headerEnd(t *testing.T, b []byte) int {
	t.Helper()
	p := &parser{b: b, off: len(magic)}
	if _, err := p.uvarint(); err != nil {
		t.Fatal(err)
	}
	n, err := p.uvarint()
	if err != nil {
		t.Fatal(err)
	}
	return p.off + int(n)
}

// isPrefix reports whether got's events are the first of want's.
func isPrefix(got *Recording, want []Event) bool {
	events := slices.Collect(got.Events())
	return len(events) <= len(want) && slices.EqualFunc(events, want[:len(events)], func(a, b Event) bool { return reflect.DeepEqual(a, b) }) &&
		got.Count == len(events)
}

// TestCutPlaysUpToItsLastWholeEvent: every prefix of a recording that
// ends within its magic or header is refused as truncated, in one line;
// every longer one (a process killed mid-recording) is read up to its
// last whole event, and says where it was cut.
func TestCutPlaysUpToItsLastWholeEvent(t *testing.T) {
	b, events := sample(t)
	end := headerEnd(t, b)
	for n := 1; n < len(b); n++ {
		rec, err := Parse(b[:n])
		if n < end {
			if rec != nil || !errors.Is(err, ErrTruncated) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("the first %d of %d bytes (header %d): %v, %v; want truncated, in one line", n, len(b), end, rec, err)
			}
			continue
		}
		if err != nil || rec.Stop != StopCut || !isPrefix(rec, events) || rec.Size != int64(n) {
			t.Fatalf("the first %d of %d bytes: %v; want the events before the cut", n, len(b), err)
		}
		if got := slices.Collect(rec.Events()); len(got) > 0 && !rec.checksum && rec.End != got[len(got)-1].At {
			t.Fatalf("the first %d bytes end at %v, the last whole event at %v", n, rec.End, got[len(got)-1].At)
		}
	}
	rec, err := Parse(b[:len(b)-20]) // within the last flush mark: up to the one before
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("the file was cut short (a process killed mid-recording, or a copy cut): %d events whole, up to t=%v, then ", rec.Count, rec.End)
	if rec.Count == 0 || rec.Count == len(events) {
		t.Fatalf("cut 20 bytes before its end: %d of %d events, want some", rec.Count, len(events))
	}
	if !strings.HasPrefix(rec.Cut(), want) || !strings.HasSuffix(rec.Cut(), "; it replays up to there") {
		t.Fatalf("cut in the middle: %q, want %q...", rec.Cut(), want)
	}
	if whole, _ := Parse(b); whole.Cut() != "" || whole.Stop != StopDone {
		t.Fatalf("a whole recording says %q", whole.Cut())
	}
}

// TestCorruptedIsRefused: a recording with any one byte changed after its
// magic is refused, damaged (or, when the change cuts it, truncated), or,
// when the change makes an event run past the file's end, read as cut
// there: never with an event that is not the recording's.
func TestCorruptedIsRefused(t *testing.T) {
	b, events := sample(t)
	for i := len(magic); i < len(b); i++ {
		for _, flip := range []byte{1, 0x80, 0xff} {
			c := bytes.Clone(b)
			c[i] ^= flip
			rec, err := Parse(c)
			if err == nil {
				if rec.Stop != StopCut || !isPrefix(rec, events) {
					t.Fatalf("byte %d ^ %#x: read a damaged recording", i, flip)
				}
				continue
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
		{nil, ErrEmpty, "the file is empty (0 bytes)"},
		{bytes.Replace(b[:40], []byte("\r\n"), []byte("\n"), 1), ErrDamaged, "copy it as binary"},
		{append(append([]byte(magic), binary.AppendUvarint(nil, Version+1)...), b[len(magic)+1:]...), ErrNewer,
			"made by a newer gridlag (recording version 3; this gridlag reads version 2): update gridlag"},
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
	if err != nil || rec.Stop != StopFull || rec.Count != written || written < 20 {
		t.Fatalf("read back %d events (wrote %d), stop %v: %v", rec.Count, written, rec.Stop, err)
	}
	if _, err := NewWriter(&buf, h, 40); err == nil {
		t.Fatal("a bound smaller than the header was taken")
	}
}

// TestEventsOutOfRangeAreRefused: an event a replay could not play (a
// direction, switch, loss or player out of range; data where none goes;
// a kind its recording does not hold) makes the recording damaged, the
// refusal naming the event and the byte it starts at; a writer will not
// write an unknown kind, nor one its recording does not hold.
func TestEventsOutOfRangeAreRefused(t *testing.T) {
	game := Header{Kind: KindGame, Game: &Game{Name: "ada"}}
	lab := Header{Kind: KindLab, Lab: &Lab{Speed: "1x"}}
	one := Header{Kind: KindScenario, Scenario: &Scenario{Players: []Player{{Start: [2]int{1, 1}}}}}
	for _, c := range []struct {
		h    Header
		e    Event
		says string
	}{
		{game, Event{Kind: Press, Arg: 7}, "press of direction 7"},
		{game, Event{Kind: Predict, Arg: 2}, "predict switched to 2"},
		{lab, Event{Kind: Loss, Arg: int64(math.Float64bits(math.NaN()))}, "loss of NaN"},
		{lab, Event{Kind: Loss, Arg: int64(math.Float64bits(1.5))}, "loss of 1.5"},
		{game, Event{Kind: Zap, Who: 9}, "zap of player 9"},
		{game, Event{Kind: Zap, Data: []byte{1}}, "zap with 1 bytes of data"},
		{game, Event{Kind: Deliver}, "deliver of no bytes"},
		{game, Event{Kind: Check, Data: []byte{1, 2}}, "a check that does not read"},
		{one, Event{Kind: Update}, "update by Player 1, which a scenario recording does not hold"},
		{one, Event{Kind: Press, Who: Player2, Arg: 1}, "press by Player 2, which a scenario recording does not hold"},
		{game, Event{Kind: Sync, Who: Nobody}, "sync by the lab, which a game recording does not hold"},
		{game, Event{Kind: Zap, Who: Player2}, "zap by Player 2, which a game recording"},
		{lab, Event{Kind: Press, Who: Nobody, Arg: 1}, "press by the lab, which a lab recording"},
		{lab, Event{Kind: Rate, Who: Player1, Arg: 20}, "rate by Player 1, which a lab recording"},
		{lab, Event{Kind: Deliver, Data: []byte{1}}, "deliver by Player 1, which a lab recording"},
		{lab, Event{Kind: Loss, Arg: 0}, "loss by Player 1, which a lab recording"},
	} {
		ok := Event{At: ms, Kind: Zap}
		if c.h.Kind == KindLab {
			ok.Kind, ok.Who = Sync, Nobody
		}
		b := write(t, c.h, []Event{ok, ok, c.e, ok}, 0)
		_, err := Parse(b)
		at := len(write(t, c.h, []Event{ok, ok}, 0)) - 4 - 5 // less its end mark (5 bytes) and checksum
		want := fmt.Sprintf("recording refused: damaged: event 3 at byte %d: %s", at, c.says)
		if !errors.Is(err, ErrDamaged) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%+v: %v, want %q", c.e, err, want)
		}
		if c.e.Kind.Known() && c.e.Who <= Player2 && c.h.allows(c.e) != nil {
			if err := writeErr(c.h, c.e); err == nil || !strings.Contains(err.Error(), "does not hold") {
				t.Errorf("the writer of a %s took %+v: %v", c.h.Kind, c.e, err)
			}
		}
	}
	if err := writeErr(game, Event{Kind: 200}); err == nil {
		t.Fatal("wrote an unknown kind")
	}
}

func writeErr(h Header, e Event) error {
	w, err := NewWriter(new(bytes.Buffer), h, 0)
	if err != nil {
		return err
	}
	return w.Write(e)
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
		for e := range rec.Events() {
			if err := w.Write(e); err != nil {
				t.Fatalf("event %+v does not write back: %v", e, err)
			}
		}
		w.Close(rec.End)
		again, err := Parse(out.Bytes())
		if err != nil || !reflect.DeepEqual(slices.Collect(again.Events()), slices.Collect(rec.Events())) || again.End != rec.End {
			t.Fatalf("written back, read %v (%v)", again, err)
		}
	})
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// presses writes a scenario's recording of n presses, the first of which
// (bad) is of a player the scenario does not have, and returns its bytes.
func presses(t testing.TB, n int, bad bool) []byte {
	t.Helper()
	h := Header{Kind: KindScenario, Scenario: &Scenario{Players: []Player{{Start: [2]int{1, 1}}}}}
	events := make([]Event, n)
	for i := range events {
		events[i] = Event{At: time.Duration(i) * ms, Kind: Press, Arg: int64(1 + i%4)}
	}
	if bad {
		events[0].Who = Player2
	}
	return write(t, h, events, 0)
}

// TestReadStopsAtTheFirstBadEvent: a reader refuses a recording at its
// first bad event without reading what follows (a window of the stream
// at most), and keeps none of it.
func TestReadStopsAtTheFirstBadEvent(t *testing.T) {
	b := presses(t, 200_000, true)
	r := &countingReader{r: bytes.NewReader(b)}
	_, err := Read(r, 0)
	if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), "event 1 at byte") {
		t.Fatalf("%v, want event 1 refused", err)
	}
	if r.n > 128<<10 || r.n*4 > len(b) {
		t.Fatalf("read %d of %d bytes to refuse the first event", r.n, len(b))
	}
}

// TestRecordingHoldsItsFileSize: a recording read holds its events as
// the file has them: reading one of 200,000 presses (1.4 MB of events,
// 7 bytes each) allocates the file's size and little more (a buffered
// window, the header), not a struct per event; every event walks back
// out of it.
func TestRecordingHoldsItsFileSize(t *testing.T) {
	b := presses(t, 200_000, false)
	path := filepath.Join(t.TempDir(), "a.rec")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	rec, err := ReadFile(path, 0)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if got, bound := after.TotalAlloc-before.TotalAlloc, uint64(len(b))+256<<10; got > bound {
		t.Fatalf("reading %d bytes allocated %d, more than %d", len(b), got, bound)
	}
	n, i := 0, 0
	for e := range rec.Events() {
		if e.At != time.Duration(i)*ms || e.Arg != int64(1+i%4) {
			t.Fatalf("event %d: %+v", i, e)
		}
		n++
		i++
	}
	if n != 200_000 || rec.Count != n {
		t.Fatalf("walked %d events of %d", n, rec.Count)
	}
}

// TestWriterFlushesEverySecond: a game written at 60 steps a second for
// 55 s, its file read as it grows, as after a kill -9: at every moment
// the file on disk replays up to at most FlushEvery before the last
// event written, and right up to it after a Check (a State's view).
func TestWriterFlushesEverySecond(t *testing.T) {
	path := filepath.Join(t.TempDir(), "long.rec")
	w, err := Create(path, Header{Kind: KindGame, Gridlag: "test", Game: &Game{Name: "ada"}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	onDisk := func() *Recording {
		t.Helper()
		rec, err := ReadFile(path, 0)
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
	if rec := onDisk(); rec.Stop != StopCut || rec.Count != 0 || !strings.Contains(rec.Cut(), "0 events whole") {
		t.Fatalf("the header alone: %v %d %q", rec.Stop, rec.Count, rec.Cut())
	}
	step, n := time.Second/60, 0
	for at := time.Duration(0); at < 55*time.Second; at += step {
		n++
		if err := w.Write(Event{At: at, Kind: Update}); err != nil {
			t.Fatal(err)
		}
		if at%(500*ms) < step {
			if rec := onDisk(); rec.Stop != StopCut || rec.End < at-FlushEvery {
				t.Fatalf("at %v the file holds up to %v (%v)", at, rec.End, rec.Stop)
			}
		}
	}
	check := CheckView{Ack: 1}.Event(55 * time.Second)
	if err := w.Write(check); err != nil {
		t.Fatal(err)
	}
	if rec := onDisk(); rec.End != 55*time.Second || rec.Count != n+1 {
		t.Fatalf("after a check the file holds up to %v, %d events", rec.End, rec.Count)
	}
	if err := w.Close(56 * time.Second); err != nil {
		t.Fatal(err)
	}
	if rec := onDisk(); rec.Stop != StopDone || rec.End != 56*time.Second {
		t.Fatalf("closed: %v at %v", rec.Stop, rec.End)
	}
}

// TestVersionOneStillReads: a file of version 1 (no flush marks) reads
// whole, and cut short, up to its last whole event.
func TestVersionOneStillReads(t *testing.T) {
	_, events := gameSample(t)
	events = events[:len(events)-1] // within a second, no check: no flush mark
	b := write(t, Header{Kind: KindGame, Gridlag: "test", Game: &Game{Name: "ada", Seed: 3}}, events, time.Second)
	if bytes.Contains(b[headerEnd(t, b):], []byte{byte(flushMark)}) {
		t.Fatal("the sample has a byte 254 in its events")
	}
	v1 := bytes.Clone(b)
	v1[len(magic)] = 1
	// The checksum covers the version: written again for version 1.
	sum := crc32.ChecksumIEEE(v1[:len(v1)-4])
	binary.BigEndian.PutUint32(v1[len(v1)-4:], sum)
	rec, err := Parse(v1)
	if err != nil || rec.Version != 1 || rec.Count != len(events) {
		t.Fatalf("version 1: %v, %+v", err, rec)
	}
	rec, err = Parse(v1[:len(v1)-20])
	if err != nil || rec.Stop != StopCut || !isPrefix(rec, events) || rec.Count == 0 {
		t.Fatalf("version 1, cut: %v, %+v", err, rec)
	}
}
