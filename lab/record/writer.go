package record

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"os"
	"time"
)

// endReserve is room kept for the end mark and checksum: a writer never
// writes an event that would leave less.
const endReserve = 1 + binary.MaxVarintLen64 + 1 + binary.MaxVarintLen64 + 1 + 4

// markSize is the most a flush mark takes: kind, dt 0, who, the count,
// the data's length, the CRC.
const markSize = 1 + 1 + 1 + binary.MaxVarintLen64 + 1 + 4

// Writer writes a recording: the header when it is made, then the events
// in time order, then (Close) the end mark and the checksum. It is bounded
// by Max: an event that would take the file past it is not written, the
// writer is Full from then on, and the end mark says the recording
// stopped there. It is not safe for concurrent use.
type Writer struct {
	out    *bufio.Writer
	file   io.Closer // the file Create opened; nil for NewWriter
	crc    hash.Hash32
	max    int64
	size   int64
	last   time.Duration
	count  uint64
	full   bool
	closed bool
	err    error
	buf    []byte
	h      Header
	// flushed is the time of the last event flushed to the file.
	flushed time.Duration
}

// FlushEvery is the longest stretch of a recording's time whose events
// a Writer keeps in its buffer: a process killed mid-recording (kill -9,
// a power cut) loses at most the last FlushEvery of it. A Writer also
// flushes after every Check (the view after a State: where a replay can
// compare) and after the header.
const FlushEvery = time.Second

// NewWriter writes the magic, the version and h to w, and returns the
// writer of the events. max bounds the whole file in bytes (0: DefaultMax);
// a header that does not fit in it is an error.
func NewWriter(w io.Writer, h Header, max int64) (*Writer, error) {
	if max <= 0 {
		max = DefaultMax
	}
	if err := h.check(); err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	js, err := json.Marshal(h)
	if err != nil {
		return nil, fmt.Errorf("record: header: %w", err)
	}
	if len(js) > MaxHeader {
		return nil, fmt.Errorf("record: the header is %d bytes, more than %d", len(js), MaxHeader)
	}
	rw := &Writer{out: bufio.NewWriterSize(w, 64<<10), crc: crc32.NewIEEE(), max: max, h: h}
	b := []byte(magic)
	b = binary.AppendUvarint(b, Version)
	b = binary.AppendUvarint(b, uint64(len(js)))
	b = append(b, js...)
	if int64(len(b))+endReserve > max {
		return nil, fmt.Errorf("record: a size limit of %d bytes does not hold the recording's header (%d bytes)", max, len(b))
	}
	rw.put(b)
	if rw.err == nil {
		rw.err = rw.out.Flush() // a file killed at once still says what it is
	}
	return rw, rw.err
}

// Create creates the file at path (0600: a game's recording holds what
// the player saw) and writes the header to it (see NewWriter); Close
// closes the file.
func Create(path string, h Header, max int64) (*Writer, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, err
	}
	w, err := NewWriter(f, h, max)
	if err != nil {
		f.Close()
		os.Remove(path)
		return nil, err
	}
	w.file = f
	return w, nil
}

// put writes b, counting it in the size and the checksum.
func (w *Writer) put(b []byte) {
	if w.err != nil {
		return
	}
	w.crc.Write(b)
	w.size += int64(len(b))
	_, w.err = w.out.Write(b)
}

// Write appends e. Events come in time order: one earlier than the last
// is written at the last one's time. It returns ErrFull, and writes
// nothing, once the recording has reached its bound (the first time,
// the event that did not fit); an error of the file, from then on.
func (w *Writer) Write(e Event) error {
	switch {
	case w.err != nil:
		return w.err
	case w.closed:
		return errors.New("record: write after Close")
	case w.full:
		return ErrFull
	case e.Kind == 0 || !e.Kind.Known():
		return fmt.Errorf("record: event of unknown %v", e.Kind)
	case len(e.Data) > MaxData:
		return fmt.Errorf("record: %v event of %d bytes, more than %d", e.Kind, len(e.Data), MaxData)
	case e.At > MaxSpan:
		return fmt.Errorf("record: event at %v, after the longest recording (%v)", e.At, MaxSpan)
	}
	if err := w.h.allows(e); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	return w.append(e)
}

// append writes e, unchecked, unless the recording is full.
func (w *Writer) append(e Event) error {
	at := max(e.At, w.last)
	b := append(w.buf[:0], byte(e.Kind))
	b = binary.AppendUvarint(b, uint64(at-w.last))
	b = append(b, e.Who)
	b = binary.AppendVarint(b, e.Arg)
	b = binary.AppendUvarint(b, uint64(len(e.Data)))
	b = append(b, e.Data...)
	w.buf = b[:0]
	if w.size+int64(len(b))+markSize+endReserve > w.max {
		w.full = true
		return ErrFull
	}
	w.last = at
	w.count++
	w.put(b)
	if e.Kind == Check || at-w.flushed >= FlushEvery {
		w.flush()
	}
	return w.err
}

// flush writes a flush mark (what a reader of a file cut short checks
// the events before it by), then the buffer to the file.
func (w *Writer) flush() {
	b := append(w.buf[:0], byte(flushMark), 0, Nobody)
	b = binary.AppendVarint(b, int64(w.count))
	b = append(b, 4)
	b = binary.BigEndian.AppendUint32(b, w.crc.Sum32())
	w.buf = b[:0]
	w.put(b)
	if w.err == nil {
		w.err = w.out.Flush()
	}
	w.flushed = w.last
}

// Flush writes what the buffer holds to the file: every event written
// so far reads back from it, up to the last whole one, even if the
// process is killed before Close.
func (w *Writer) Flush() error {
	if w.err == nil && !w.closed {
		w.flush()
	}
	return w.err
}

// Full reports whether the recording reached its bound: no event was
// written since, and the end mark will say so.
func (w *Writer) Full() bool { return w.full }

// Size returns the bytes written so far (the end mark adds at most 27).
func (w *Writer) Size() int64 { return w.size }

// Last returns the time of the last event written.
func (w *Writer) Last() time.Duration { return w.last }

// Close writes the end mark at time end (the last event's, if end is
// earlier) and the checksum, flushes, and closes the file Create opened.
func (w *Writer) Close(end time.Duration) error {
	if w.closed {
		return w.err
	}
	w.closed = true
	stop := StopDone
	if w.full {
		stop = StopFull
	}
	end = min(max(end, w.last), MaxSpan)
	b := []byte{0}
	b = binary.AppendUvarint(b, uint64(end-w.last))
	b = append(b, byte(stop))
	b = binary.AppendVarint(b, int64(w.count))
	b = append(b, 0)
	w.put(b)
	w.put(binary.BigEndian.AppendUint32(nil, w.crc.Sum32()))
	if w.err == nil {
		w.err = w.out.Flush()
	}
	if w.file != nil {
		if err := w.file.Close(); w.err == nil {
			w.err = err
		}
	}
	return w.err
}
