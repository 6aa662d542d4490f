package protocol

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"unicode/utf8"

	"gridlag/grid"
)

// Decoding errors. Each is wrapped with the message type it occurred in.
var (
	ErrShort    = errors.New("payload too short")
	ErrTrailing = errors.New("trailing bytes after payload")
	ErrBadUTF8  = errors.New("string is not valid UTF-8")
	ErrBadValue = errors.New("field out of range")
)

type reader struct {
	b   []byte
	err error
}

func (r *reader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if len(r.b) < n {
		r.err = ErrShort
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) u8() uint8 {
	if b := r.take(1); b != nil {
		return b[0]
	}
	return 0
}

func (r *reader) u16() uint16 {
	if b := r.take(2); b != nil {
		return binary.BigEndian.Uint16(b)
	}
	return 0
}

func (r *reader) u32() uint32 {
	if b := r.take(4); b != nil {
		return binary.BigEndian.Uint32(b)
	}
	return 0
}

func (r *reader) u64() uint64 {
	if b := r.take(8); b != nil {
		return binary.BigEndian.Uint64(b)
	}
	return 0
}

func (r *reader) str() string {
	n := int(r.u8())
	b := r.take(n)
	if r.err != nil {
		return ""
	}
	if !utf8.Valid(b) {
		r.err = ErrBadUTF8
		return ""
	}
	return string(b)
}

// uvarint reads a uvarint in its shortest encoding, the only one the
// package writes.
func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, k := binary.Uvarint(r.b)
	switch {
	case k == 0:
		r.fail(ErrShort)
		return 0
	case k < 0 || k != uvarintLen(v):
		r.fail(ErrBadValue) // more than 64 bits, or not the shortest
		return 0
	}
	r.b = r.b[k:]
	return v
}

// uvarintLen returns the size of v's shortest uvarint.
func uvarintLen(v uint64) int {
	var b [binary.MaxVarintLen64]byte
	return binary.PutUvarint(b[:], v)
}

// count reads a list's length, the number of entries of entryLen bytes
// that follow, and fails with ErrShort if fewer bytes remain than they
// need, so that no decoder makes room for entries that are not there. It
// returns 0 once the reader has failed.
func (r *reader) count(entryLen int) int {
	n := int(r.u16())
	if r.err == nil && len(r.b) < n*entryLen {
		r.fail(ErrShort)
	}
	if r.err != nil {
		return 0
	}
	return n
}

func (r *reader) bool() bool {
	switch r.u8() {
	case 0:
		return false
	case 1:
		return true
	}
	r.fail(ErrBadValue)
	return false
}

func (r *reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

func (r *reader) done() error {
	if r.err == nil && len(r.b) != 0 {
		r.err = ErrTrailing
	}
	return r.err
}

func appendStr(b []byte, s string) ([]byte, error) {
	if len(s) > math.MaxUint8 {
		return b, fmt.Errorf("string of %d bytes is longer than 255: %w", len(s), ErrBadValue)
	}
	if !utf8.ValidString(s) {
		return b, ErrBadUTF8
	}
	b = append(b, byte(len(s)))
	return append(b, s...), nil
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

func (m *Hello) appendPayload(b []byte) ([]byte, error) {
	b = binary.BigEndian.AppendUint16(b, m.Version)
	b = appendBool(b, m.Bot)
	b = append(b, m.Color)
	b, err := appendStr(b, m.Name)
	if err != nil {
		return b, err
	}
	return appendRoom(b, m.Room)
}

func (m *Hello) decodePayload(r *reader) error {
	m.Version = r.u16()
	m.Bot = r.bool()
	m.Color = r.u8()
	m.Name = r.str()
	m.Room = decodeRoom(r)
	return r.done()
}

func appendInfo(b []byte, p PlayerInfo) ([]byte, error) {
	if p.ID == 0 {
		return b, fmt.Errorf("player ID 0: %w", ErrBadValue)
	}
	b = binary.BigEndian.AppendUint16(b, uint16(p.ID))
	b = append(b, p.Color)
	return appendStr(b, p.Name)
}

func decodeInfo(r *reader) PlayerInfo {
	p := PlayerInfo{ID: grid.PlayerID(r.u16()), Color: r.u8(), Name: r.str()}
	if p.ID == 0 {
		r.fail(ErrBadValue)
	}
	return p
}

// appendMap appends a map: its width, its height and, if it is small
// enough to travel inline (see MaxInlineMapCells), its cells, row-major.
// They must make a valid grid.Map; a larger map has no cells here.
func appendMap(b []byte, width, height uint16, cells []byte) ([]byte, error) {
	if err := checkMap(width, height, cells); err != nil {
		return b, err
	}
	b = binary.BigEndian.AppendUint16(b, width)
	b = binary.BigEndian.AppendUint16(b, height)
	return append(b, cells...), nil
}

// decodeMap reads what appendMap wrote.
func decodeMap(r *reader) (width, height uint16, cells []byte) {
	width, height = r.u16(), r.u16()
	if inlineMap(width, height) {
		cells = append([]byte(nil), r.take(int(width)*int(height))...)
	}
	if r.err == nil {
		if err := checkMap(width, height, cells); err != nil {
			r.fail(err)
		}
	}
	return width, height, cells
}

// checkMap checks a map's dimensions, and its cells if it travels inline.
func checkMap(width, height uint16, cells []byte) error {
	if inlineMap(width, height) {
		if _, err := grid.NewMapFromCells(int(width), int(height), cells); err != nil {
			return fmt.Errorf("%w: %w", ErrBadValue, err)
		}
		return nil
	}
	if width > grid.MaxMapSide || height > grid.MaxMapSide || len(cells) != 0 {
		return fmt.Errorf("%dx%d map with %d cells inline: %w", width, height, len(cells), ErrBadValue)
	}
	return nil
}

func (m *Welcome) appendPayload(b []byte) ([]byte, error) {
	if m.Player == 0 {
		return b, fmt.Errorf("player ID 0: %w", ErrBadValue)
	}
	if len(m.Players) > math.MaxUint16 {
		return b, fmt.Errorf("%d players: %w", len(m.Players), ErrBadValue)
	}
	b = binary.BigEndian.AppendUint16(b, uint16(m.Player))
	b = binary.BigEndian.AppendUint16(b, m.UpdateRate)
	b = binary.BigEndian.AppendUint16(b, m.MoveTimeMS)
	b = append(b, m.Burst)
	b, err := appendMap(b, m.MapWidth, m.MapHeight, m.Cells)
	if err != nil {
		return b, err
	}
	b = binary.BigEndian.AppendUint16(b, uint16(len(m.Players)))
	for _, p := range m.Players {
		if b, err = appendInfo(b, p); err != nil {
			return b, err
		}
	}
	b = append(b, m.Token[:]...)
	return binary.BigEndian.AppendUint16(b, m.ResumeS), nil
}

func (m *Welcome) decodePayload(r *reader) error {
	m.Player = grid.PlayerID(r.u16())
	m.UpdateRate = r.u16()
	m.MoveTimeMS = r.u16()
	m.Burst = r.u8()
	m.MapWidth, m.MapHeight, m.Cells = decodeMap(r)
	n := int(r.u16())
	m.Players = nil
	for i := 0; i < n && r.err == nil; i++ {
		m.Players = append(m.Players, decodeInfo(r))
	}
	m.Token = r.token()
	m.ResumeS = r.u16()
	if r.err == nil && m.Player == 0 {
		r.fail(ErrBadValue)
	}
	return r.done()
}

func (m *Error) appendPayload(b []byte) ([]byte, error) {
	b = append(b, m.Code)
	return appendStr(b, m.Text)
}

func (m *Error) decodePayload(r *reader) error {
	m.Code = r.u8()
	m.Text = r.str()
	return r.done()
}

func (m *Input) appendPayload(b []byte) ([]byte, error) {
	if !m.Dir.Valid() {
		return b, fmt.Errorf("direction %v: %w", m.Dir, ErrBadValue)
	}
	b = binary.BigEndian.AppendUint32(b, m.Seq)
	return append(b, byte(m.Dir)), nil
}

func (m *Input) decodePayload(r *reader) error {
	m.Seq = r.u32()
	m.Dir = grid.Dir(r.u8())
	if r.err == nil && !m.Dir.Valid() {
		r.fail(fmt.Errorf("direction %d: %w", uint8(m.Dir), ErrBadValue))
	}
	return r.done()
}

func (m *Ping) appendPayload(b []byte) ([]byte, error) {
	return binary.BigEndian.AppendUint64(b, m.Stamp), nil
}

func (m *Ping) decodePayload(r *reader) error {
	m.Stamp = r.u64()
	return r.done()
}

func (m *Pong) appendPayload(b []byte) ([]byte, error) {
	return binary.BigEndian.AppendUint64(b, m.Stamp), nil
}

func (m *Pong) decodePayload(r *reader) error {
	m.Stamp = r.u64()
	return r.done()
}

func (m *Bye) appendPayload(b []byte) ([]byte, error) { return appendStr(b, m.Reason) }

func (m *Bye) decodePayload(r *reader) error {
	m.Reason = r.str()
	return r.done()
}

func (m *Notice) appendPayload(b []byte) ([]byte, error) { return appendStr(b, m.Text) }

func (m *Notice) decodePayload(r *reader) error {
	m.Text = r.str()
	return r.done()
}

func (m *Join) appendPayload(b []byte) ([]byte, error) { return appendInfo(b, m.Player) }

func (m *Join) decodePayload(r *reader) error {
	m.Player = decodeInfo(r)
	return r.done()
}

func (m *Leave) appendPayload(b []byte) ([]byte, error) {
	if m.ID == 0 {
		return b, fmt.Errorf("player ID 0: %w", ErrBadValue)
	}
	return binary.BigEndian.AppendUint16(b, uint16(m.ID)), nil
}

func (m *Leave) decodePayload(r *reader) error {
	m.ID = grid.PlayerID(r.u16())
	if r.err == nil && m.ID == 0 {
		r.fail(ErrBadValue)
	}
	return r.done()
}
