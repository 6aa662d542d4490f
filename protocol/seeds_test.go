package protocol_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gridlag/grid"
	"gridlag/protocol"
)

// seed is one named input of FuzzDecode's seed corpus.
type seed struct {
	name string // the corpus file's name under testdata/fuzz/FuzzDecode
	data []byte
}

// frame builds a frame by hand: the right length prefix, then the type byte
// and the payload pieces as given, valid or not.
func frame(typ byte, payload ...[]byte) []byte {
	body := append([]byte{typ}, bytes.Join(payload, nil)...)
	return append(binary.BigEndian.AppendUint16(nil, uint16(len(body))), body...)
}

func u16(v uint16) []byte { return binary.BigEndian.AppendUint16(nil, v) }

// sightHead is a Sight's fields before its pending inputs: at (10,10),
// facing facing, its ghost at (9,10), flags, ack 7, 100 ms of
// interpolation, a round trip of 250 ms, no latency of its own, two
// corrections.
func sightHead(facing, flags byte) []byte {
	return slices.Concat(u16(10), u16(10), []byte{facing}, u16(9), u16(10), []byte{flags}, u32(7), u16(100), u16(250), u16(0), u32(2))
}

// sight is a Sight frame: sightHead and the inputs.
func sight(facing, flags byte, inputs ...[]byte) []byte {
	return frame(byte(protocol.TypeSight), sightHead(facing, flags), []byte{byte(len(inputs))}, slices.Concat(inputs...))
}

// sightInput is one pending input of a Sight.
func sightInput(seq uint32, dir byte, ageMS uint16) []byte {
	return slices.Concat(u32(seq), []byte{dir}, u16(ageMS))
}
func u32(v uint32) []byte { return binary.BigEndian.AppendUint32(nil, v) }
func u64(v uint64) []byte { return binary.BigEndian.AppendUint64(nil, v) }

// uv is a uvarint in its shortest encoding.
func uv(v uint64) []byte { return binary.AppendUvarint(nil, v) }

// str is a wire string: a length byte, then the bytes, whatever they are.
func str(s string) []byte { return append([]byte{byte(len(s))}, s...) }

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// token is a wire resume token of TokenLen bytes, each b.
func token(b byte) []byte { return bytes.Repeat([]byte{b}, protocol.TokenLen) }

// seeds returns FuzzDecode's seed corpus: a valid frame of every type, a
// stream of them all, and the nasty inputs a hostile or broken peer sends.
func seeds(t testing.TB) []seed {
	var s []seed
	var stream []byte
	valid := map[protocol.Type][]byte{}
	for _, ex := range examples() {
		b := mustMarshal(t, ex.msg)
		if _, ok := valid[ex.msg.Type()]; !ok {
			valid[ex.msg.Type()] = b // the first form, its version's oldest
		}
		stream = append(stream, b...)
		name := ex.msg.Type().String()
		if v, ok := strings.CutPrefix(strings.TrimSuffix(ex.file, ".bin"), strings.ToLower(name)+"-"); ok {
			name += "-" + v // a later version's form: Conditions-v6
		}
		s = append(s,
			seed{"valid-" + name, b},
			seed{"truncated-header-" + name, b[:1]},
			seed{"truncated-body-" + name, b[:len(b)-1]},
			seed{"trailing-byte-" + name, frame(b[2], b[3:], []byte{0})},
			seed{"short-payload-" + name, frame(b[2], b[3:len(b)-1])},
		)
	}
	for _, ex := range streamExamples() {
		var b bytes.Buffer
		enc := protocol.NewEncoder(&b)
		for _, m := range ex.msgs {
			if err := enc.Encode(m); err != nil {
				t.Fatal(err)
			}
		}
		s = append(s, seed{"golden-stream-" + ex.file, b.Bytes()})
	}
	hello := func(version uint16, bot byte, color byte, name string) []byte {
		return frame(byte(protocol.TypeHello), u16(version), []byte{bot, color}, str(name))
	}
	welcome := func(player, w, h uint16, cells string, players ...[]byte) []byte {
		return frame(byte(protocol.TypeWelcome), u16(player), u16(20), u16(100), []byte{4},
			u16(w), u16(h), []byte(cells), u16(uint16(len(players))), cat(players...), token(7), u16(30))
	}
	resume := func(version uint16, tok []byte) []byte {
		return frame(byte(protocol.TypeResume), u16(version), tok)
	}
	info := func(id uint16, color byte, name string) []byte { return cat(u16(id), []byte{color}, str(name)) }
	state := func(flags byte, count uint16, players ...[]byte) []byte {
		return frame(byte(protocol.TypeState), u32(9), u64(450e6), u32(7), []byte{flags}, u16(count), cat(players...), u16(0))
	}
	gone := func(count uint16, ids ...uint16) []byte {
		b := cat(u32(9), u64(450e6), u32(7), []byte{0}, u16(0), u16(count))
		for _, id := range ids {
			b = append(b, u16(id)...)
		}
		return frame(byte(protocol.TypeState), b)
	}
	idle := frame(byte(protocol.TypeState), u32(9), u64(450e6), u32(7))
	step := func(parts ...[]byte) []byte { return frame(byte(protocol.TypeStateStep), parts...) }
	chunk := func(w, y, rows uint16, runs ...byte) []byte {
		return frame(byte(protocol.TypeMapChunk), u16(w), u16(y), u16(rows), runs)
	}
	bits := func(w, h uint16, total, offset uint32, data ...byte) []byte {
		return frame(byte(protocol.TypeMapBits), u16(w), u16(h), u32(total), u32(offset), data)
	}
	pos := func(id, x, y uint16) []byte { return cat(u16(id), u16(x), u16(y)) }
	overview := func(total, count uint16, players ...[]byte) []byte {
		return frame(byte(protocol.TypeOverview), u32(9), u64(450e6), u16(total), u16(count), cat(players...))
	}
	seen := func(id uint16, bot byte, x, y uint16, ack uint32, rtt uint16) []byte {
		return cat(u16(id), []byte{bot}, u16(x), u16(y), u32(ack), u16(rtt))
	}
	spectating := func(w, h uint16, cells string) []byte {
		return frame(byte(protocol.TypeSpectating), u16(20), u16(100), []byte{4}, u16(w), u16(h), []byte(cells))
	}
	zapResult := func(outcome byte, target uint16, dir, n byte) []byte {
		return frame(byte(protocol.TypeZapResult), u32(1), []byte{outcome}, u16(target), u16(0), u16(3), u16(4), []byte{dir, n})
	}
	scores := func(count uint16, players ...[]byte) []byte {
		return frame(byte(protocol.TypeScores), u16(1), u32(180000), u16(0), u16(0), u16(count), cat(players...))
	}
	score := func(id uint16, bot, frozen byte, points uint16) []byte {
		return cat(u16(id), []byte{bot, frozen}, u16(points))
	}
	ranking := func(winner string, count uint16, players ...[]byte) []byte {
		return frame(byte(protocol.TypeRanking), u16(1), u32(180000), u16(3), u16(2), u16(1), u16(4), str(winner), u16(count), cat(players...))
	}
	rank := func(id uint16, flags byte, points uint16, info ...[]byte) []byte {
		return cat(u16(id), []byte{flags}, u16(points), cat(info...))
	}
	conditions := func(teachers byte, latency, jitter, loss uint16, holds byte, rate uint16, lagcomp byte) []byte {
		return frame(byte(protocol.TypeConditions), []byte{teachers}, u16(latency), u16(jitter), u16(loss), []byte{holds}, u16(rate), []byte{lagcomp})
	}
	student := func(id, rtt, pending uint16, corrections uint32) []byte {
		return cat(u16(id), u16(rtt), u16(pending), u32(corrections))
	}
	s = append(s,
		seed{"empty", nil},
		seed{"stream-all-types", stream},
		seed{"stream-bad-in-middle", cat(valid[protocol.TypeInput], frame(0xff, []byte("junk")), frame(byte(protocol.TypeInput), u32(2), []byte{9}), valid[protocol.TypePing])},
		seed{"zero-length", []byte{0, 0}},
		seed{"zero-length-then-valid", cat([]byte{0, 0}, valid[protocol.TypeLeave])},
		seed{"length-max-no-body", []byte{0xff, 0xff}},
		seed{"length-max-short-body", cat([]byte{0xff, 0xff, byte(protocol.TypeState)}, bytes.Repeat([]byte{0}, 100))},
		seed{"unknown-type-0", frame(0)},
		seed{"unknown-type-48", frame(48, []byte{1, 2, 3})},
		seed{"unknown-type-255", frame(255)},
		seed{"hello-escape-in-name", hello(protocol.Version, 0, 0, "\x1b]0;pwned\a\x1b[2J")},
		seed{"hello-bad-bool", hello(protocol.Version, 2, 0, "ada")},
		seed{"hello-bad-utf8", hello(protocol.Version, 0, 0, "\xff\xfe")},
		seed{"hello-overlong-utf8", hello(protocol.Version, 0, 0, "\xc0\xaf")},
		seed{"hello-surrogate-utf8", hello(protocol.Version, 0, 0, "\xed\xa0\x80")},
		seed{"hello-name-255", hello(protocol.Version, 1, 9, string(bytes.Repeat([]byte("é"), 127))+"x")},
		seed{"hello-string-len-past-end", frame(byte(protocol.TypeHello), u16(1), []byte{0, 0, 200}, []byte("ada"))},
		seed{"welcome-huge-map", welcome(1, 0xffff, 0xffff, "")},
		seed{"welcome-zero-map", welcome(1, 0, 0, "")},
		seed{"welcome-bad-cell", welcome(1, 2, 1, "#x")},
		seed{"welcome-player-0", welcome(0, 1, 1, ".")},
		seed{"welcome-huge-player-count", frame(byte(protocol.TypeWelcome), u16(1), u16(20), u16(100), []byte{4}, u16(1), u16(1), []byte("."), u16(0xffff))},
		seed{"welcome-info-id-0", welcome(1, 1, 1, "#", info(0, 1, "zero"))},
		seed{"welcome-info-bad-utf8", welcome(1, 1, 1, "#", info(2, 1, "\x80"))},
		seed{"state-huge-count", state(0, 0xffff)},
		seed{"state-count-too-small", state(0, 1, pos(1, 2, 3), pos(2, 3, 4))},
		seed{"state-player-0", state(0, 1, pos(0, 2, 3))},
		seed{"state-empty-body", state(0, 0)},
		seed{"state-full-nobody", state(1, 0)},
		seed{"state-bad-flags", state(4, 1, pos(1, 2, 3))},
		seed{"state-left", cat(frame(byte(protocol.TypeState), u32(9), u64(450e6), u32(7), []byte{2}, u16(0), u16(0), u16(2), u16(5), u16(6)))},
		seed{"state-left-missing", state(2, 1, pos(1, 2, 3))},
		seed{"state-left-empty", frame(byte(protocol.TypeState), u32(9), u64(450e6), u32(7), []byte{2}, u16(1), pos(1, 2, 3), u16(0), u16(0))},
		seed{"state-left-0", frame(byte(protocol.TypeState), u32(9), u64(450e6), u32(7), []byte{2}, u16(0), u16(0), u16(1), u16(0))},
		seed{"state-head-only", frame(byte(protocol.TypeState), u32(9), u64(450e6), u32(7))},
		seed{"state-max-coords", state(0, 2, pos(0xffff, 0xffff, 0xffff), pos(1, 0, 0))},
		seed{"state-gone-0", gone(1, 0)},
		seed{"state-gone-huge-count", gone(0xffff, 1)},
		seed{"state-full-and-gone", frame(byte(protocol.TypeState), u32(9), u64(450e6), u32(7), []byte{1}, u16(1), pos(1, 2, 3), u16(1), u16(2))},
		seed{"step-first", step(uv(1), uv(50000), uv(0))},
		seed{"step-after-idle-state", cat(idle, step(uv(1), uv(50000), uv(0)), step(uv(1), uv(50000), uv(3)))},
		seed{"step-after-moves", cat(valid[protocol.TypeState], step(uv(0), uv(0), uv(0)), idle, step(uv(200), uv(1), uv(1<<31)))},
		seed{"step-after-bad-state", cat(idle, state(0, 0), step(uv(1), uv(50000), uv(0)))},
		seed{"step-overlong-varint", cat(idle, step([]byte{0x81, 0x00}, uv(50000), uv(0)))},
		seed{"step-varint-65-bits", cat(idle, step(uv(1), bytes.Repeat([]byte{0xff}, 10), []byte{0x01}, uv(0)))},
		seed{"step-tick-past-32-bits", cat(idle, step(uv(1<<32-9), uv(50000), uv(0)))},
		seed{"step-ack-past-32-bits", cat(idle, step(uv(1), uv(50000), uv(1<<32-7)))},
		seed{"step-time-past-64-bits", cat(idle, step(uv(1), uv(1<<64/1000), uv(0)))},
		seed{"step-short", cat(idle, step(uv(1), uv(50000)))},
		seed{"step-trailing", cat(idle, step(uv(1), uv(50000), uv(0), []byte{0}))},
		seed{"mapchunk-width-0", chunk(0, 0, 1, 2)},
		seed{"mapchunk-width-1025", chunk(1025, 0, 1, 0x8a, 0x10)},
		seed{"mapchunk-past-last-row", chunk(1, 1023, 2, 4)},
		seed{"mapchunk-too-many-cells", chunk(1024, 0, 64, 0x80, 0x80, 0x04)},
		seed{"mapchunk-run-0", chunk(2, 0, 1, 0, 4)},
		seed{"mapchunk-run-past-row", chunk(2, 0, 1, 6)},
		seed{"mapchunk-same-kind-twice", chunk(2, 0, 1, 3, 3)},
		seed{"mapchunk-overlong-varint", chunk(2, 0, 1, 0x85, 0x00)},
		seed{"mapchunk-varint-cut", chunk(200, 0, 1, 0x91)},
		seed{"mapchunk-runs-short", chunk(3, 0, 1, 3)},
		seed{"mapchunk-trailing-run", chunk(1, 0, 1, 3, 2)},
		seed{"mapbits-width-0", bits(0, 300, 10, 0, 1)},
		seed{"mapbits-height-1025", bits(300, 1025, 10, 0, 1)},
		seed{"mapbits-total-0", bits(300, 300, 0, 0, 1)},
		seed{"mapbits-total-past-bound", bits(8, 8, uint32(protocol.MaxMapBitsLen(8, 8)+1), 0, 1)},
		seed{"mapbits-total-huge", bits(1024, 1024, 0xffffffff, 0, 1)},
		seed{"mapbits-empty-piece", bits(300, 300, 10, 0)},
		seed{"mapbits-piece-past-total", bits(300, 300, 2, 1, 1, 2)},
		seed{"mapbits-offset-huge", bits(300, 300, 10, 0xffffffff, 1)},
		seed{"mapbits-short-head", frame(byte(protocol.TypeMapBits), u16(300), u16(300), u32(10), u16(0))},
		seed{"welcome-then-mapbits", cat(welcome(1, 300, 250, ""), mapBitsFrames(t, 300, 250))},
		seed{"input-dir-none", frame(byte(protocol.TypeInput), u32(1), []byte{0})},
		seed{"input-dir-5", frame(byte(protocol.TypeInput), u32(1), []byte{5})},
		seed{"input-dir-255", frame(byte(protocol.TypeInput), u32(1), []byte{255})},
		seed{"join-id-0", frame(byte(protocol.TypeJoin), info(0, 1, "x"))},
		seed{"leave-id-0", frame(byte(protocol.TypeLeave), u16(0))},
		seed{"bye-empty-reason", frame(byte(protocol.TypeBye), str(""))},
		seed{"bye-no-payload", frame(byte(protocol.TypeBye))},
		seed{"notice-no-payload", frame(byte(protocol.TypeNotice))},
		seed{"notice-bad-utf8", frame(byte(protocol.TypeNotice), str("\xc3\x28"))},
		seed{"error-bad-utf8", frame(byte(protocol.TypeError), []byte{4}, str("\xc3\x28"))},
		seed{"spectate-bad-utf8", frame(byte(protocol.TypeSpectate), u16(protocol.Version), str("\xff"))},
		seed{"spectate-old-version", frame(byte(protocol.TypeSpectate), u16(0), str("teacher"))},
		seed{"spectating-huge-map", spectating(0xffff, 0xffff, "")},
		seed{"spectating-bad-cell", spectating(2, 1, "#x")},
		seed{"overview-huge-count", overview(0xffff, 0xffff)},
		seed{"overview-count-over-total", overview(0, 1, seen(1, 0, 2, 3, 4, 5))},
		seed{"overview-player-0", overview(1, 1, seen(0, 0, 2, 3, 4, 5))},
		seed{"overview-bad-bool", overview(1, 1, seen(1, 2, 2, 3, 4, 5))},
		seed{"overview-capped", overview(9, 2, seen(1, 1, 2, 3, 4, protocol.NoRTT), seen(2, 0, 0xffff, 0xffff, 0xffffffff, 0))},
		seed{"zap-short", frame(byte(protocol.TypeZap), u32(1), u32(2))},
		seed{"zapresult-outcome-0", zapResult(0, 2, 1, 3)},
		seed{"zapresult-outcome-9", zapResult(9, 2, 1, 3)},
		seed{"zapresult-protected", zapResult(byte(protocol.ZapProtected), 2, 1, 3)},
		seed{"zapresult-protected-nobody", zapResult(byte(protocol.ZapProtected), 0, 1, 3)},
		seed{"zapresult-tagged", zapResult(byte(protocol.ZapTagged), 2, 4, 8)},
		seed{"zapresult-tagged-nobody", zapResult(byte(protocol.ZapTagged), 0, 4, 8)},
		seed{"zapresult-hit-nobody", zapResult(byte(protocol.ZapHit), 0, 1, 3)},
		seed{"zapresult-dir-5", zapResult(byte(protocol.ZapWall), 0, 5, 3)},
		seed{"zapresult-len-9", zapResult(byte(protocol.ZapRange), 0, 4, 9)},
		seed{"tagged-by-0", frame(byte(protocol.TypeTagged), u16(0), u16(1), u16(2), u16(3), u16(4))},
		seed{"scores-huge-count", scores(0xffff)},
		seed{"scores-count-too-small", scores(1, score(1, 0, 0, 2), score(2, 1, 1, 3))},
		seed{"scores-player-0", scores(1, score(0, 0, 0, 2))},
		seed{"scores-bad-bool", scores(1, score(1, 0, 2, 2))},
		seed{"hello-room", frame(byte(protocol.TypeHello), u16(protocol.Version), []byte{0, 0}, str("ada"), str("kitchen"))},
		seed{"hello-room-empty", frame(byte(protocol.TypeHello), u16(protocol.Version), []byte{0, 0}, str("ada"), str(""))},
		seed{"spectate-room-past-end", frame(byte(protocol.TypeSpectate), u16(protocol.Version), str("teacher"), []byte{9}, []byte("a"))},
		seed{"rooms-huge-count", frame(byte(protocol.TypeRooms), u16(256), u16(0xffff))},
		seed{"rooms-count-too-small", frame(byte(protocol.TypeRooms), u16(256), u16(0), str("x"))},
		seed{"rooms-cut-with-total", frame(byte(protocol.TypeRooms), u16(1024), u16(1), str("a"), u16(1), u16(32), u16(0), u16(1), u32(5000), u16(900))},
		seed{"rooms-total-not-more", frame(byte(protocol.TypeRooms), u16(1024), u16(1), str("a"), u16(1), u16(32), u16(0), u16(1), u32(5000), u16(1))},
		seed{"rooms-total-half", frame(byte(protocol.TypeRooms), u16(1024), u16(0), []byte{3})},
		seed{"resume-zero-token", resume(protocol.Version, token(0))},
		seed{"resume-short-token", resume(protocol.Version, token(7)[:protocol.TokenLen-1])},
		seed{"resume-old-version", resume(0, token(7))},
		seed{"welcome-zero-token", frame(byte(protocol.TypeWelcome), u16(1), u16(20), u16(100), []byte{4}, u16(1), u16(1), []byte("."), u16(0), token(0), u16(0))},
		seed{"protect-id-0", frame(byte(protocol.TypeProtect), u16(0), u64(2e9))},
		seed{"protect-short", frame(byte(protocol.TypeProtect), u16(1), u32(2))},
		seed{"ranking-empty", ranking("", 0)},
		seed{"ranking-unnamed", ranking("", 2, rank(1, 1, 3), rank(2, 0, 0))},
		seed{"ranking-named", ranking("ada", 1, rank(1, 4, 3, []byte{2}, str("ada")))},
		seed{"ranking-huge-count", ranking("", 0xffff)},
		seed{"ranking-count-too-small", ranking("", 1, rank(1, 0, 3), rank(2, 0, 4))},
		seed{"ranking-player-0", ranking("", 1, rank(0, 0, 3))},
		seed{"ranking-bad-flags", ranking("", 1, rank(1, 8, 3))},
		seed{"ranking-name-past-end", ranking("", 1, rank(1, 4, 3, []byte{2, 9}, []byte("ada")))},
		seed{"ranking-bad-utf8", ranking("\xff", 1, rank(1, 4, 3, []byte{2}, str("\xc3\x28")))},
		seed{"error-c1-controls", frame(byte(protocol.TypeError), []byte{4}, str("\u009b31m\u0085"))},
		seed{"teach-default-room", frame(byte(protocol.TypeTeach), u16(protocol.Version), str("teacher"))},
		seed{"teach-room-empty", frame(byte(protocol.TypeTeach), u16(protocol.Version), str("teacher"), str(""))},
		seed{"conditions-none", conditions(0, 0, 0, 0, 0, 20, 1)},
		seed{"conditions-hold-3", conditions(1, 300, 0, 0, 3, 20, 1)},
		seed{"conditions-high-bits", conditions(1, 300, 0, 0, 0x40, 20, 1)},
		seed{"conditions-loss-over-all", conditions(1, 300, 0, protocol.MaxLossBP+1, 0, 20, 1)},
		seed{"conditions-bad-bool", conditions(1, 300, 20, 200, 0x12, 20, 2)},
		seed{"conditions-short", frame(byte(protocol.TypeConditions), []byte{1}, u16(300), u16(0))},
		seed{"conditions-v6-trace-step", frame(byte(protocol.TypeConditions), []byte{1}, u16(44), u16(11), u16(0), []byte{0}, u16(20), []byte{1}, str("lte-handover"), str("handover, other band"))},
		seed{"conditions-v6-no-step", frame(byte(protocol.TypeConditions), []byte{1}, u16(44), u16(11), u16(0), []byte{0}, u16(20), []byte{1}, str("starlink"), str(""))},
		seed{"conditions-v6-step-missing", frame(byte(protocol.TypeConditions), []byte{1}, u16(44), u16(11), u16(0), []byte{0}, u16(20), []byte{1}, str("starlink"))},
		seed{"conditions-v6-empty-trace", frame(byte(protocol.TypeConditions), []byte{1}, u16(44), u16(11), u16(0), []byte{0}, u16(20), []byte{1}, str(""), str("x"))},
		seed{"conditions-v6-bad-name", frame(byte(protocol.TypeConditions), []byte{1}, u16(44), u16(11), u16(0), []byte{0}, u16(20), []byte{1}, str("Wi-Fi scan"), str(""))},
		seed{"conditions-v6-step-escape", frame(byte(protocol.TypeConditions), []byte{1}, u16(44), u16(11), u16(0), []byte{0}, u16(20), []byte{1}, str("wifi-scan"), str("[2Jscan"))},
		seed{"conditions-v6-trailing", frame(byte(protocol.TypeConditions), []byte{1}, u16(44), u16(11), u16(0), []byte{0}, u16(20), []byte{1}, str("wifi-scan"), str("scan"), []byte{0})},
		seed{"traces-empty", frame(byte(protocol.TypeTraces), []byte{0})},
		seed{"traces-two", frame(byte(protocol.TypeTraces), []byte{2}, str("wifi-scan"), str("Wi-Fi with a background scan"), str("geo-satellite"), str(""))},
		seed{"traces-too-many", frame(byte(protocol.TypeTraces), []byte{protocol.MaxTraces + 1})},
		seed{"traces-count-past-end", frame(byte(protocol.TypeTraces), []byte{3}, str("a"), str("b"))},
		seed{"traces-bad-name", frame(byte(protocol.TypeTraces), []byte{1}, str("-a"), str("b"))},
		seed{"traces-title-control", frame(byte(protocol.TypeTraces), []byte{1}, str("a"), str("b"))},
		seed{"report-short", frame(byte(protocol.TypeReport), u16(1), u32(2))},
		seed{"class-empty", frame(byte(protocol.TypeClass), u16(0))},
		seed{"class-huge-count", frame(byte(protocol.TypeClass), u16(0xffff))},
		seed{"class-count-too-small", frame(byte(protocol.TypeClass), u16(1), student(1, 300, 2, 3), student(2, 300, 2, 3))},
		seed{"class-student-0", frame(byte(protocol.TypeClass), u16(1), student(0, 300, 2, 3))},
		seed{"trace-off", frame(byte(protocol.TypeTrace), []byte{0})},
		seed{"trace-bad-bool", frame(byte(protocol.TypeTrace), []byte{2})},
		seed{"stages-empty", frame(byte(protocol.TypeStages), []byte{0})},
		seed{"stages-one", frame(byte(protocol.TypeStages), []byte{1}, uv(7), []byte{byte(protocol.StageMoved)}, uv(125000), uv(0))},
		seed{"stages-too-many", frame(byte(protocol.TypeStages), []byte{protocol.MaxStages + 1})},
		seed{"stages-count-past-end", frame(byte(protocol.TypeStages), []byte{3}, uv(7), []byte{1}, uv(9), uv(0))},
		seed{"stages-seq-not-rising", frame(byte(protocol.TypeStages), []byte{2}, uv(7), []byte{1}, uv(9), uv(0), uv(0), []byte{1}, uv(9), uv(0))},
		seed{"stages-seq-over-32-bits", frame(byte(protocol.TypeStages), []byte{2}, uv(1<<32-1), []byte{1}, uv(9), uv(0), uv(1), []byte{1}, uv(9), uv(0))},
		seed{"stages-bad-outcome", frame(byte(protocol.TypeStages), []byte{1}, uv(7), []byte{0}, uv(9), uv(0))},
		seed{"stages-outcome-past-last", frame(byte(protocol.TypeStages), []byte{1}, uv(7), []byte{8}, uv(9), uv(0))},
		seed{"stages-applied-before-arrival", frame(byte(protocol.TypeStages), []byte{1}, uv(7), []byte{1}, uv(9), uv(10))},
		seed{"stages-before-over-32-bits", frame(byte(protocol.TypeStages), []byte{1}, uv(7), []byte{1}, uv(1<<32), uv(0))},
		seed{"perceive-stop", frame(byte(protocol.TypePerceive), []byte{2, 0, 0, 0}, u16(0), u16(0), []byte{0})},
		seed{"perceive-no-levels", frame(byte(protocol.TypePerceive), []byte{1, 1, 2, 2}, u16(6000), u16(10000), []byte{0})},
		seed{"perceive-too-many-levels", frame(byte(protocol.TypePerceive), []byte{1, 1, 2, 2}, u16(6000), u16(10000), []byte{protocol.MaxPerceiveLevels + 1})},
		seed{"perceive-level-repeated", frame(byte(protocol.TypePerceive), []byte{1, 3, 2, 2}, u16(6000), u16(10000), []byte{2}, u16(50), u16(50))},
		seed{"perceive-predict-4", frame(byte(protocol.TypePerceive), []byte{1, 4, 2, 2}, u16(6000), u16(10000), []byte{1}, u16(50))},
		seed{"trial-play", frame(byte(protocol.TypeTrial), u16(1), u16(3), u16(18), []byte{1}, u16(6000), []byte{1, 0})},
		seed{"trial-phase-5", frame(byte(protocol.TypeTrial), u16(1), u16(3), u16(18), []byte{5}, u16(6000), []byte{1, 0})},
		seed{"trial-results-past-end", frame(byte(protocol.TypeTrial), u16(1), u16(0), u16(18), []byte{3}, u16(0), []byte{0, 9}, u16(50), []byte{5})},
		seed{"trial-result-high-bits", frame(byte(protocol.TypeTrial), u16(1), u16(0), u16(18), []byte{3}, u16(0), []byte{0, 1}, u16(50), []byte{0x09})},
		seed{"answer-verdict-3", frame(byte(protocol.TypeAnswer), u16(1), u16(2), []byte{3})},
		seed{"perception-none", frame(byte(protocol.TypePerception), u16(0), u16(0), u16(0), []byte{0}, u16(0), []byte{0}, u16(0), u16(0), str(""), u16(0), u16(0))},
		seed{"perception-predict-4", frame(byte(protocol.TypePerception), u16(1), u16(1), u16(18), []byte{1}, u16(6000), []byte{4}, u16(3), u16(0), str(""), u16(0), u16(0))},
		seed{"perception-huge-trials", frame(byte(protocol.TypePerception), u16(1), u16(0), u16(18), []byte{3}, u16(0), []byte{1}, u16(3), u16(0), str(""), u16(0xffff))},
		seed{"perception-name-0", frame(byte(protocol.TypePerception), u16(1), u16(0), u16(18), []byte{3}, u16(0), []byte{1}, u16(3), u16(0), str(""), u16(0), u16(1), u16(0), []byte{1}, str("x"))},
		seed{"perception-note-bad-utf8", frame(byte(protocol.TypePerception), u16(1), u16(0), u16(18), []byte{3}, u16(0), []byte{1}, u16(3), u16(0), str("\xc3\x28"), u16(0), u16(0))},
		seed{"stages-long-varint", frame(byte(protocol.TypeStages), []byte{1}, []byte{0x87, 0x00}, []byte{1}, uv(9), uv(0))},
		seed{"follow-nobody", frame(byte(protocol.TypeFollow), u16(0))},
		seed{"crowd-none", frame(byte(protocol.TypeCrowd), u16(0), []byte{0})},
		seed{"crowd-bad-bool", frame(byte(protocol.TypeCrowd), u16(100), []byte{2})},
		seed{"crowd-short", frame(byte(protocol.TypeCrowd), u16(100))},
		seed{"crowded-capped", frame(byte(protocol.TypeCrowded), u16(1000), u16(253), u16(12), u16(253), []byte{0}, str("the room holds 256 players (-room-players)"))},
		seed{"crowded-given-over-asked", frame(byte(protocol.TypeCrowded), u16(10), u16(11), u16(0), u16(100), []byte{0}, str(""))},
		seed{"crowded-note-bad-utf8", frame(byte(protocol.TypeCrowded), u16(10), u16(10), u16(0), u16(100), []byte{0}, str("\xc3\x28"))},
		seed{"counters-none", frame(byte(protocol.TypeCounters), u32(1000), u32(0), u32(0), u32(protocol.NoFigure), u32(protocol.NoFigure), u32(50e6), u32(0), u32(protocol.NoFigure), u32(protocol.NoFigure), u32(protocol.NoFigure), u32(0), u32(0))},
		seed{"counters-short", frame(byte(protocol.TypeCounters), u32(1000), u32(0), u32(0))},
		seed{"follow-short", frame(byte(protocol.TypeFollow), []byte{1})},
		seed{"sight-none-pending", sight(1, 0)},
		seed{"sight-one-zap", sight(1, 0, sightInput(7, 0, 20))},
		seed{"sight-bad-facing", sight(5, 0)},
		seed{"sight-bad-flags", sight(1, 0x10)},
		seed{"sight-too-many", frame(byte(protocol.TypeSight), sightHead(1, 0), []byte{protocol.MaxSightPending + 1})},
		seed{"sight-count-past-end", frame(byte(protocol.TypeSight), sightHead(1, 0), []byte{3}, sightInput(7, 4, 20))},
		seed{"sight-bad-direction", sight(1, 0, sightInput(7, 9, 20))},
		seed{"followed-student-0", frame(byte(protocol.TypeFollowed), u16(0), sightHead(1, 0), []byte{0})},
		seed{"followed-one", frame(byte(protocol.TypeFollowed), u16(3), sightHead(4, 0x0f), []byte{1}, sightInput(9, 1, 300))},
		seed{"code-short", frame(byte(protocol.TypeCode), str("3b-K7Q2XM"))},
		seed{"code-empty", frame(byte(protocol.TypeCode), str(""))},
		seed{"code-space", frame(byte(protocol.TypeCode), str("3b K7Q2XM"))},
		seed{"code-control", frame(byte(protocol.TypeCode), str("3b-\x1b[2J"))},
		seed{"code-too-long", frame(byte(protocol.TypeCode), str("class-ABCDEFGHJKMNPQRSTVWXYZ234567"))},
		seed{"code-length-past-end", frame(byte(protocol.TypeCode), []byte{9}, []byte("3b-K"))},
		seed{"code-trailing", frame(byte(protocol.TypeCode), str("3b-K7Q2XM"), []byte{0})},
		seed{"classcode-ask", frame(byte(protocol.TypeClassCode), str(""))},
		seed{"classcode-told", frame(byte(protocol.TypeClassCode), str("class-23456Z"))},
		seed{"classcode-utf8", frame(byte(protocol.TypeClassCode), str("3b-Ü7Q2XM"))},
		seed{"classcode-empty-payload", frame(byte(protocol.TypeClassCode))},
		seed{"queued-first", frame(byte(protocol.TypeQueued), u32(1), u32(1), u32(0))},
		seed{"queued-place-0", frame(byte(protocol.TypeQueued), u32(0), u32(5), u32(1000))},
		seed{"queued-place-past-line", frame(byte(protocol.TypeQueued), u32(6), u32(5), u32(1000))},
		seed{"queued-short", frame(byte(protocol.TypeQueued), u32(1), u32(5))},
		seed{"queued-long", frame(byte(protocol.TypeQueued), u32(1), u32(5), u32(1000), []byte{0})},
		seed{"admission-no-line", frame(byte(protocol.TypeAdmission), u16(32), u16(0), u32(0))},
		seed{"admission-own", frame(byte(protocol.TypeAdmission), u16(0), u16(60), u32(2048))},
		seed{"admission-wait-without-line", frame(byte(protocol.TypeAdmission), u16(32), u16(60), u32(0))},
		seed{"admission-line-without-wait", frame(byte(protocol.TypeAdmission), u16(32), u16(0), u32(2048))},
		seed{"admission-short", frame(byte(protocol.TypeAdmission), u16(32), u16(60))},
	)
	return s
}

// mapBitsFrames is the MapBits frames of a generated width x height map.
func mapBitsFrames(t testing.TB, width, height int) []byte {
	m, err := grid.Generate(width, height, 1)
	if err != nil {
		t.Fatal(err)
	}
	var b []byte
	for _, p := range protocol.MapBitsOf(m) {
		b = append(b, mustMarshal(t, p)...)
	}
	return b
}

// corpusFile is the text of a seed file in the format go test reads from
// testdata/fuzz/<FuzzName>.
func corpusFile(data []byte) []byte {
	return fmt.Appendf(nil, "go test fuzz v1\n[]byte(%q)\n", data)
}

// TestSeedCorpus checks that every seed is committed under
// testdata/fuzz/FuzzDecode, so the seeds run on every go test (and are the
// starting point of go test -fuzz) even if someone edits seeds() without
// running -update. Other files there are inputs the fuzzer once failed on:
// they stay as regression tests.
func TestSeedCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "fuzz", "FuzzDecode")
	names := map[string]bool{}
	for _, sd := range seeds(t) {
		if names[sd.name] {
			t.Errorf("two seeds are named %s", sd.name)
		}
		names[sd.name] = true
		path := filepath.Join(dir, sd.name)
		want := corpusFile(sd.data)
		if *update {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%v (run go test ./protocol -update to write it)", err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is out of date (run go test ./protocol -update)", path)
		}
	}
}
