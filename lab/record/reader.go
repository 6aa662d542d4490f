package record

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"iter"
	"math"
	"os"
	"time"
)

// Recording is a whole recording, read and checked. Its events are kept
// as the file has them, their bytes one after the other (from 5 bytes an
// event, and never more than the file's size in all), and decoded one at
// a time as they are walked (Events, Cursor): a recording in memory takes
// its file's size, not a struct per event.
type Recording struct {
	Version int
	Header  Header
	// End is the recording's end: the time of its end mark.
	End time.Duration
	// Stop is why it ended.
	Stop Stop
	// Size is the file's size in bytes.
	Size int64
	// Count is the number of events.
	Count int
	// cut is, for a file cut short (Stop is StopCut), how many bytes
	// of it follow the last whole event (a part of the next, or the
	// checksum's first bytes).
	cut      int64
	checksum bool // the cut is within the checksum: every event and the end mark are whole

	events []byte // every event's bytes as in the file, the end mark not
}

// Events returns the recording's events in order, each decoded as it
// comes; an event's Data is the recording's own bytes, not a copy.
func (r *Recording) Events() iter.Seq[Event] { return r.Cursor().Rest() }

// Cursor returns a cursor at the recording's first event.
func (r *Recording) Cursor() *Cursor { return &Cursor{b: r.events} }

// Cursor walks a recording's events in order: it holds its place (a byte
// offset and the time so far), not the events.
type Cursor struct {
	b   []byte
	off int
	at  time.Duration
	n   int
}

// Next returns the next event; ok false after the last.
func (c *Cursor) Next() (e Event, ok bool) {
	e, n, ok := c.peek()
	if ok {
		c.off += n
		c.at = e.At
		c.n++
	}
	return e, ok
}

// Peek returns the next event without moving on.
func (c *Cursor) Peek() (Event, bool) {
	e, _, ok := c.peek()
	return e, ok
}

// Rest returns the events from the cursor's place on, moving it as they
// are walked.
func (c *Cursor) Rest() iter.Seq[Event] {
	return func(yield func(Event) bool) {
		for e, ok := c.Next(); ok && yield(e); e, ok = c.Next() {
		}
	}
}

// Index returns how many events Next has returned.
func (c *Cursor) Index() int { return c.n }

// peek decodes the event at the cursor and its length in bytes. The bytes
// were checked when they were read: a decoding error (none can happen)
// ends the walk rather than panicking.
func (c *Cursor) peek() (Event, int, bool) {
	p := parser{b: c.b, off: c.off}
	k, err := p.byte()
	if err != nil {
		return Event{}, 0, false
	}
	dt, err1 := p.uvarint()
	who, err2 := p.byte()
	arg, err3 := p.varint()
	dn, err4 := p.uvarint()
	data, err5 := p.bytes(dn)
	if err := errors.Join(err1, err2, err3, err4, err5); err != nil {
		return Event{}, 0, false
	}
	e := Event{At: c.at + time.Duration(dt), Kind: Kind(k), Who: who, Arg: arg}
	if dn > 0 {
		e.Data = data[:dn:dn]
	}
	return e, p.off - c.off, true
}

// ReadFile reads and checks the recording at path, of at most max bytes
// (0: DefaultMax). A refusal is an *Error naming the file, in one line. A
// file larger than max is refused before a byte of it is read.
func ReadFile(path string, max int64) (*Recording, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := int64(-1)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	rec, err := read(f, max, size)
	var e *Error
	if errors.As(err, &e) {
		e.Path = path
	}
	return rec, err
}

// Read reads a whole recording from r, at most max bytes (0: DefaultMax),
// and checks it (see Parse) as it reads: it stops at the first thing
// wrong, and keeps nothing but the events' bytes of what it read.
func Read(r io.Reader, max int64) (*Recording, error) { return read(r, max, -1) }

// read reads a recording from r, of size bytes if that is known (not -1).
func read(r io.Reader, max, size int64) (*Recording, error) {
	if max <= 0 {
		max = DefaultMax
	}
	tooLarge := func() error {
		return &Error{Reason: fmt.Errorf("%w: more than %d bytes (raise the reader's limit, -max-size, if it is yours)", ErrTooLarge, max)}
	}
	if size > max {
		return nil, tooLarge()
	}
	lr := &io.LimitedReader{R: r, N: max + 1}
	d := &decoder{r: bufio.NewReaderSize(lr, 64<<10), crc: crc32.NewIEEE(), size: size}
	rec, err := d.recording()
	if lr.N <= 0 {
		return nil, tooLarge() // whatever it was, it was more than max
	}
	if err != nil {
		return nil, &Error{Reason: err}
	}
	return rec, nil
}

// Parse checks a whole recording and returns it. It refuses, with an
// *Error wrapping ErrEmpty, ErrNotRecording, ErrNewer, ErrTruncated or
// ErrDamaged, anything but a recording of a version it reads whose every
// event is well formed (and of its kind of recording) and whose checksum
// holds; the first event that is not is refused with its number and
// where it starts. A file cut short after its header (a process killed
// mid-recording) is read up to its last whole event: Stop is StopCut and
// Cut says where (no checksum to check; each event is checked).
func Parse(b []byte) (*Recording, error) {
	return read(bytes.NewReader(b), int64(len(b)), int64(len(b)))
}

// errShort is a read past the end: the file is truncated.
var errShort = errors.New("short")

// errOverflow is a number of more than 64 bits.
var errOverflow = errors.New("a number overflows 64 bits")

// parser reads bytes in memory in order: a Check's data, or the events a
// Recording holds.
type parser struct {
	b   []byte
	off int
}

func (p *parser) byte() (byte, error) {
	if p.off >= len(p.b) {
		return 0, errShort
	}
	c := p.b[p.off]
	p.off++
	return c, nil
}

func (p *parser) uvarint() (uint64, error) { return uvarint(p.byte) }

func (p *parser) varint() (int64, error) { return unzigzag(p.uvarint()) }

func (p *parser) bytes(n uint64) ([]byte, error) {
	if n > uint64(len(p.b)-p.off) {
		return nil, errShort
	}
	b := p.b[p.off : p.off+int(n)]
	p.off += int(n)
	return b, nil
}

// uvarint reads an unsigned LEB128 number of at most 64 bits a byte at a
// time, as encoding/binary's Uvarint does.
func uvarint(next func() (byte, error)) (uint64, error) {
	var x uint64
	var s uint
	for i := range binary.MaxVarintLen64 {
		c, err := next()
		if err != nil {
			return 0, err
		}
		if c < 0x80 {
			if i == binary.MaxVarintLen64-1 && c > 1 {
				return 0, errOverflow
			}
			return x | uint64(c)<<s, nil
		}
		x |= uint64(c&0x7f) << s
		s += 7
	}
	return 0, errOverflow
}

// unzigzag is encoding/binary's Varint of a uvarint.
func unzigzag(u uint64, err error) (int64, error) {
	return int64(u>>1) ^ -int64(u&1), err
}

// decoder reads a recording from a stream, checking each part as it
// comes, and keeps the events' bytes.
type decoder struct {
	r    *bufio.Reader
	crc  hash.Hash32 // of every byte before the current part
	size int64       // the stream's size, -1 if unknown
	off  int64       // bytes read before buf
	buf  []byte      // the part being read (magic to header; then the events, kept)
}

func (d *decoder) byte() (byte, error) {
	c, err := d.r.ReadByte()
	if err != nil {
		return 0, d.short(err)
	}
	d.buf = append(d.buf, c)
	return c, nil
}

func (d *decoder) uvarint() (uint64, error) { return uvarint(d.byte) }

func (d *decoder) varint() (int64, error) { return unzigzag(d.uvarint()) }

// bytes reads n bytes (the caller bounds n) onto buf and returns them.
func (d *decoder) bytes(n uint64) ([]byte, error) {
	start := len(d.buf)
	if d.size >= 0 && int64(n) > d.size-d.off-int64(start) {
		return nil, errShort // no need to read on: the file ends first
	}
	d.buf = append(d.buf, make([]byte, n)...)
	if _, err := io.ReadFull(d.r, d.buf[start:]); err != nil {
		d.buf = d.buf[:start]
		return nil, d.short(err)
	}
	return d.buf[start:], nil
}

// short is errShort for the stream's end, else the error.
func (d *decoder) short(err error) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return errShort
	}
	return err
}

// mark adds the part just read, buf from from on, to the checksum.
func (d *decoder) mark(from int) { d.crc.Write(d.buf[from:]) }

// length returns how many bytes have been read.
func (d *decoder) length() int64 { return d.off + int64(len(d.buf)) }

func (d *decoder) recording() (*Recording, error) {
	head := make([]byte, len(magic))
	n, err := io.ReadFull(d.r, head)
	head = head[:n]
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, err
	}
	if n == 0 {
		return nil, ErrEmpty
	}
	if n < len(magic) {
		if n > 0 && bytes.HasPrefix([]byte(magic), head) {
			return nil, fmt.Errorf("%w: %d bytes, cut within its first 8", ErrTruncated, n)
		}
		return nil, ErrNotRecording
	}
	if string(head) != magic {
		if bytes.Equal(head[1:4], []byte("GLR")) {
			return nil, fmt.Errorf("%w: its first bytes were changed in transfer (copy it as binary)", ErrDamaged)
		}
		return nil, ErrNotRecording
	}
	d.buf = append(d.buf, head...)
	short := func(what string) error {
		n := d.length()
		if d.size >= 0 {
			n = d.size // the reader saw the rest would not hold the part, unread
		}
		return fmt.Errorf("%w: %d bytes end within its %s", ErrTruncated, n, what)
	}
	v, err := d.uvarint()
	switch {
	case err == errShort:
		return nil, short("version")
	case err != nil:
		return nil, fmt.Errorf("%w: its version: %v", ErrDamaged, err)
	case v == 0:
		return nil, fmt.Errorf("%w: version 0", ErrDamaged)
	case v > Version:
		return nil, fmt.Errorf("%w (recording version %d; this gridlag reads version %d): update gridlag to replay it", ErrNewer, v, Version)
	}
	rec := &Recording{Version: int(v)}
	hn, err := d.uvarint()
	switch {
	case err == errShort:
		return nil, short("header")
	case err != nil:
		return nil, fmt.Errorf("%w: its header's length: %v", ErrDamaged, err)
	case hn > MaxHeader:
		return nil, fmt.Errorf("%w: a header of %d bytes, more than %d", ErrDamaged, hn, MaxHeader)
	}
	js, err := d.bytes(hn)
	if err == errShort {
		return nil, short("header")
	} else if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec.Header); err != nil || dec.More() {
		if err == nil {
			err = errors.New("more after the header's object")
		}
		return nil, fmt.Errorf("%w: its header: %v", ErrDamaged, err)
	}
	if err := rec.Header.check(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	d.mark(0)
	d.off += int64(len(d.buf))
	// From here buf keeps the events, at most the rest of the file.
	d.buf = nil
	if d.size >= 0 {
		d.buf = make([]byte, 0, d.size-d.off)
	}
	return rec, d.events(rec)
}

// events reads the events and the end mark, checking each event as it
// comes: the first one wrong is refused, with its number and where it
// starts, before anything after it is read.
func (d *decoder) events(rec *Recording) error {
	var at, whole time.Duration // the time so far, and of the last whole event
	// good is where a file cut short ends: from version 2, its last
	// flush mark (the events before it checked by its CRC); before, its
	// last whole event.
	type place struct {
		count int
		at    time.Duration
		len   int
	}
	var good place
	for {
		start := len(d.buf)
		if rec.Version < 2 {
			good = place{rec.Count, whole, start}
		}
		cut := func() error {
			rec.Count = good.count
			return rec.cutShort(d, good.at, good.len)
		}
		bad := func(format string, a ...any) error {
			return fmt.Errorf("%w: event %d at byte %d: %s", ErrDamaged, rec.Count+1, d.off+int64(start), fmt.Sprintf(format, a...))
		}
		k, err := d.byte()
		if err != nil {
			return cut()
		}
		// read reads one field, telling a cut file from a bad number.
		var failed error
		read := func(err error) bool {
			switch {
			case err == nil:
				return true
			case err == errShort:
				failed = cut()
			case errors.Is(err, errOverflow):
				failed = bad("%v", err)
			default:
				failed = err
			}
			return false
		}
		dt, err := d.uvarint()
		if !read(err) {
			return failed
		}
		if dt > uint64(MaxSpan-at) {
			return bad("at more than %v", MaxSpan)
		}
		at += time.Duration(dt)
		who, err := d.byte()
		if !read(err) {
			return failed
		}
		arg, err := d.varint()
		if !read(err) {
			return failed
		}
		dn, err := d.uvarint()
		if !read(err) {
			return failed
		}
		if dn > MaxData {
			return bad("%d bytes of data, more than %d", dn, MaxData)
		}
		data, err := d.bytes(dn)
		if !read(err) {
			return failed
		}
		if Kind(k) == flushMark && rec.Version >= 2 {
			if dt != 0 || who != Nobody || arg != int64(rec.Count) || dn != 4 || binary.BigEndian.Uint32(data) != d.crc.Sum32() {
				return bad("a flush mark that does not match the events before it (a byte changed since it was written)")
			}
			d.mark(start)
			d.off += int64(len(d.buf) - start)
			d.buf = d.buf[:start] // a flush mark is not an event
			good = place{rec.Count, whole, start}
			continue
		}
		if k == 0 {
			d.mark(start)
			d.off += int64(len(d.buf) - start)
			d.buf = d.buf[:start] // the end mark is not an event
			return rec.end(d, at, Stop(who), arg, dn)
		}
		e := Event{At: at, Kind: Kind(k), Who: who, Arg: arg, Data: data}
		if err := e.check(); err != nil {
			return bad("%v", err)
		}
		if err := rec.Header.allows(e); err != nil {
			return bad("%v", err)
		}
		d.mark(start)
		rec.Count++
		whole = at
	}
}

// cutShort ends a recording whose file ends before its end mark, start
// bytes of events in (the last whole event's end): it holds the events
// before, and ends at the last one's time (whole).
func (rec *Recording) cutShort(d *decoder, whole time.Duration, start int) error {
	rec.End, rec.Stop = whole, StopCut
	rec.Size = d.length()
	if d.size >= 0 {
		rec.Size = d.size // the part of an event the reader saw it need not read
	}
	rec.cut = int64(len(d.buf) - start)
	rec.events = d.buf[:start:start]
	return nil
}

// Cut says, for a recording whose file ends before its end mark (Stop is
// StopCut), where it was cut and what a replay plays: "the file was cut
// short (...): 3,309 events whole, up to t=50.9s, then 20 bytes left
// out; it replays up to there"; "" for a whole recording.
func (rec *Recording) Cut() string {
	if rec.Stop != StopCut {
		return ""
	}
	rest := "nothing after them"
	switch {
	case rec.checksum:
		rest = "its end mark, its checksum cut"
	case rec.cut > 0:
		rest = fmt.Sprintf("%d bytes after them left out (an event cut, or events after the last flush)", rec.cut)
	}
	return fmt.Sprintf("the file was cut short (a process killed mid-recording, or a copy cut): %s whole, up to t=%v, then %s; it replays up to there",
		plural(rec.Count, "event"), rec.End.Round(time.Millisecond), rest)
}

// plural writes n and the noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// end checks the end mark and the checksum after it, and that nothing
// follows; then the recording holds its events.
func (rec *Recording) end(d *decoder, at time.Duration, stop Stop, count int64, data uint64) error {
	var sum [4]byte
	if n, err := io.ReadFull(d.r, sum[:]); err != nil {
		if err = d.short(err); err != errShort {
			return err
		}
		// Every event and the end mark are whole: only the checksum,
		// which would have caught a changed byte, is cut.
		rec.cutShort(d, at, len(d.buf))
		rec.cut, rec.checksum = int64(n), true
		return nil
	}
	after, err := io.Copy(io.Discard, d.r)
	if err != nil {
		return err
	}
	switch {
	case after > 0:
		return fmt.Errorf("%w: %d bytes after its end mark", ErrDamaged, after)
	case d.crc.Sum32() != binary.BigEndian.Uint32(sum[:]):
		return fmt.Errorf("%w: it fails its checksum (a byte changed since it was written)", ErrDamaged)
	case stop != StopDone && stop != StopFull:
		return fmt.Errorf("%w: its end mark has the unknown reason %d", ErrDamaged, stop)
	case count != int64(rec.Count) || data != 0:
		return fmt.Errorf("%w: its end mark counts %d events, it holds %d", ErrDamaged, count, rec.Count)
	}
	rec.End, rec.Stop = at, stop
	rec.Size = d.length() + int64(len(sum))
	rec.events = d.buf
	return nil
}

// check refuses an event no replay could play: a player, switch,
// direction, duration or probability out of its range, or data where its
// kind has none.
func (e Event) check() error {
	if !e.Kind.Known() {
		return fmt.Errorf("unknown kind %d", uint8(e.Kind))
	}
	if e.Who != Player1 && e.Who != Player2 && e.Who != Nobody {
		return fmt.Errorf("%v of player %d", e.Kind, e.Who)
	}
	switch e.Kind {
	case Deliver, Hangup, Sent, Drop, Disconnect, Check:
	default:
		if len(e.Data) > 0 {
			return fmt.Errorf("%v with %d bytes of data", e.Kind, len(e.Data))
		}
	}
	switch e.Kind {
	case Press:
		if e.Arg < 1 || e.Arg > 4 {
			return fmt.Errorf("press of direction %d", e.Arg)
		}
	case Predict, Reconcile, Interpolate, LagComp:
		if e.Arg != 0 && e.Arg != 1 {
			return fmt.Errorf("%v switched to %d", e.Kind, e.Arg)
		}
	case Latency, Jitter:
		if e.Arg < 0 || e.Arg > int64(time.Hour) {
			return fmt.Errorf("%v of %v", e.Kind, time.Duration(e.Arg))
		}
	case Loss:
		if p := math.Float64frombits(uint64(e.Arg)); !(p >= 0 && p <= 1) {
			return fmt.Errorf("loss of %v", p)
		}
	case Rate:
		if e.Arg < 0 || e.Arg > 1_000_000 {
			return fmt.Errorf("rate of %d Hz", e.Arg)
		}
	case Speed:
		if e.Arg < 0 || e.Arg > 3 {
			return fmt.Errorf("speed %d", e.Arg)
		}
	case Deliver, Sent:
		if len(e.Data) == 0 {
			return fmt.Errorf("%v of no bytes", e.Kind)
		}
	case Check:
		if _, err := ParseCheck(e); err != nil {
			return err
		}
	}
	return nil
}
