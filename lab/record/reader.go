package record

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"
	"time"
)

// Recording is a whole recording, read and checked.
type Recording struct {
	Version int
	Header  Header
	Events  []Event
	// End is the recording's end: the time of its end mark.
	End time.Duration
	// Stop is why it ended.
	Stop Stop
	// Size is the file's size in bytes.
	Size int64
}

// ReadFile reads and checks the recording at path, of at most max bytes
// (0: DefaultMax). A refusal is an *Error naming the file, in one line.
func ReadFile(path string, max int64) (*Recording, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rec, err := Read(f, max)
	var e *Error
	if errors.As(err, &e) {
		e.Path = path
	}
	return rec, err
}

// Read reads a whole recording from r, at most max bytes (0: DefaultMax),
// and checks it (see Parse).
func Read(r io.Reader, max int64) (*Recording, error) {
	if max <= 0 {
		max = DefaultMax
	}
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, &Error{Reason: fmt.Errorf("%w: more than %d bytes (raise the reader's limit, -max-size, if it is yours)", ErrTooLarge, max)}
	}
	return Parse(b)
}

// Parse checks a whole recording and returns it. It refuses, with an
// *Error wrapping ErrNotRecording, ErrNewer, ErrTruncated or ErrDamaged,
// anything but a complete recording of a version it reads whose every
// event is well formed and whose checksum holds: a recording is used
// whole or not at all.
func Parse(b []byte) (*Recording, error) {
	rec, err := parse(b)
	if err != nil {
		return nil, &Error{Reason: err}
	}
	return rec, nil
}

// parser reads a recording's bytes in order.
type parser struct {
	b   []byte
	off int
}

// errShort is a read past the end: the file is truncated.
var errShort = errors.New("short")

func (p *parser) byte() (byte, error) {
	if p.off >= len(p.b) {
		return 0, errShort
	}
	c := p.b[p.off]
	p.off++
	return c, nil
}

func (p *parser) uvarint() (uint64, error) {
	v, n := binary.Uvarint(p.b[p.off:])
	switch {
	case n == 0:
		return 0, errShort
	case n < 0:
		return 0, errors.New("a number overflows 64 bits")
	}
	p.off += n
	return v, nil
}

func (p *parser) varint() (int64, error) {
	u, err := p.uvarint() // the zig-zag form of encoding/binary's Varint
	return int64(u>>1) ^ -int64(u&1), err
}

func (p *parser) bytes(n uint64) ([]byte, error) {
	if n > uint64(len(p.b)-p.off) {
		return nil, errShort
	}
	b := p.b[p.off : p.off+int(n)]
	p.off += int(n)
	return b, nil
}

func parse(b []byte) (*Recording, error) {
	if len(b) < len(magic) {
		if len(b) > 0 && bytes.HasPrefix([]byte(magic), b) {
			return nil, fmt.Errorf("%w: %d bytes, cut within its first 8", ErrTruncated, len(b))
		}
		return nil, ErrNotRecording
	}
	if string(b[:len(magic)]) != magic {
		if bytes.Equal(b[1:4], []byte("GLR")) {
			return nil, fmt.Errorf("%w: its first bytes were changed in transfer (copy it as binary)", ErrDamaged)
		}
		return nil, ErrNotRecording
	}
	p := &parser{b: b, off: len(magic)}
	short := func(what string) error {
		return fmt.Errorf("%w: %d bytes end within its %s", ErrTruncated, len(b), what)
	}
	v, err := p.uvarint()
	if err != nil {
		return nil, short("version")
	}
	switch {
	case v == 0:
		return nil, fmt.Errorf("%w: version 0", ErrDamaged)
	case v > Version:
		return nil, fmt.Errorf("%w (recording version %d; this gridlag reads version %d): update gridlag to replay it", ErrNewer, v, Version)
	}
	if len(b) >= 4 && crc32.ChecksumIEEE(b[:len(b)-4]) != binary.BigEndian.Uint32(b[len(b)-4:]) {
		// Not as written: cut short, or changed. Reading on tells which;
		// a recording that reads whole was changed.
		if _, err := p.rest(len(b), v); errors.Is(err, ErrTruncated) {
			return nil, err
		}
		return nil, fmt.Errorf("%w: it fails its checksum (a byte changed since it was written)", ErrDamaged)
	}
	return p.rest(len(b), v)
}

// rest reads a recording after its magic and version.
func (p *parser) rest(size int, v uint64) (*Recording, error) {
	b := p.b
	start := p.off
	defer func() { p.off = start }()
	short := func(what string) error {
		return fmt.Errorf("%w: %d bytes end within its %s", ErrTruncated, len(b), what)
	}
	rec := &Recording{Version: int(v), Size: int64(size)}
	n, err := p.uvarint()
	if err != nil {
		return nil, short("header")
	}
	if n > MaxHeader {
		return nil, fmt.Errorf("%w: a header of %d bytes, more than %d", ErrDamaged, n, MaxHeader)
	}
	js, err := p.bytes(n)
	if err != nil {
		return nil, short("header")
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
	var at time.Duration
	for {
		start := p.off
		cut := func() error {
			return fmt.Errorf("%w after %d events (t=%v), without its end mark: the recording was cut short", ErrTruncated, len(rec.Events), at)
		}
		bad := func(format string, a ...any) error {
			return fmt.Errorf("%w: event %d at byte %d: %s", ErrDamaged, len(rec.Events)+1, start, fmt.Sprintf(format, a...))
		}
		k, err := p.byte()
		if err != nil {
			return nil, cut()
		}
		dt, err := p.uvarint()
		if err == errShort {
			return nil, cut()
		} else if err != nil {
			return nil, bad("%v", err)
		}
		if dt > uint64(MaxSpan-at) {
			return nil, bad("at more than %v", MaxSpan)
		}
		at += time.Duration(dt)
		who, err := p.byte()
		if err != nil {
			return nil, cut()
		}
		arg, err := p.varint()
		if err == errShort {
			return nil, cut()
		} else if err != nil {
			return nil, bad("%v", err)
		}
		dn, err := p.uvarint()
		if err == errShort {
			return nil, cut()
		} else if err != nil {
			return nil, bad("%v", err)
		}
		if dn > MaxData {
			return nil, bad("%d bytes of data, more than %d", dn, MaxData)
		}
		data, err := p.bytes(dn)
		if err != nil {
			return nil, cut()
		}
		if k == 0 {
			return rec, rec.end(p, at, Stop(who), arg, dn)
		}
		e := Event{At: at, Kind: Kind(k), Who: who, Arg: arg}
		if dn > 0 {
			e.Data = data
		}
		if err := e.check(); err != nil {
			return nil, bad("%v", err)
		}
		rec.Events = append(rec.Events, e)
	}
}

// end checks the end mark and the checksum after it.
func (rec *Recording) end(p *parser, at time.Duration, stop Stop, count int64, data uint64) error {
	sum, err := p.bytes(4)
	if err != nil {
		return fmt.Errorf("%w: %d bytes end within its checksum", ErrTruncated, len(p.b))
	}
	switch {
	case p.off != len(p.b):
		return fmt.Errorf("%w: %d bytes after its end mark", ErrDamaged, len(p.b)-p.off)
	case crc32.ChecksumIEEE(p.b[:p.off-4]) != binary.BigEndian.Uint32(sum):
		return fmt.Errorf("%w: it fails its checksum (a byte changed since it was written)", ErrDamaged)
	case stop != StopDone && stop != StopFull:
		return fmt.Errorf("%w: its end mark has the unknown reason %d", ErrDamaged, stop)
	case count != int64(len(rec.Events)) || data != 0:
		return fmt.Errorf("%w: its end mark counts %d events, it holds %d", ErrDamaged, count, len(rec.Events))
	}
	rec.End, rec.Stop = at, stop
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
