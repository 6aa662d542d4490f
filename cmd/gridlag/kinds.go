package main

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"gridlag/client/bot"
	"gridlag/internal/link"
	"gridlag/ops/loadgen"
	"gridlag/protocol"
	"gridlag/server/world"
)

// The kinds of number the flags take. Every mode uses these, so that a
// value is refused the same way wherever it is given.
var (
	// latencyKind: -latency, -latency2: the latency slider's range.
	latencyKind = durationRange{max: link.MaxRTT}
	// jitterKind: -jitter, at most the slider's range too.
	jitterKind = durationRange{max: link.MaxRTT}
	// moveTimeKind: -move-time, what a Welcome frame carries.
	moveTimeKind = durationRange{min: time.Millisecond, max: world.MaxMoveTime, unit: time.Millisecond}
	// lengthKind: -until, -duration: how long something runs; 0 says "auto"
	// or "until interrupted".
	lengthKind = durationRange{}
	// timeoutKind: -ssh-idle, -ssh-handshake, -ssh-banner.
	timeoutKind = durationRange{min: time.Second}
	// resumeKind: -resume, whole seconds as a Welcome carries them; 0 = off.
	resumeKind = durationRange{max: world.MaxResume, unit: time.Second}
	// unlagKind: -unlag, as far back as the server keeps positions.
	unlagKind = durationRange{max: world.MaxUnlag}
	// protectKind: -protect.
	protectKind = durationRange{max: world.MaxProtect}
	// roundKind: -round, what a Scores frame's time left carries and more.
	roundKind = durationRange{min: world.MinRound, max: world.MaxRound}

	// rateKind: -rate, in Hz.
	rateKind = intRange{lo: 0, hi: world.MaxRate}
	// botsKind: -bots, 0 for none.
	botsKind = intRange{lo: 0, hi: bot.MaxBots}
	// botRunKind: bots' -n, at least one.
	botRunKind = intRange{lo: 1, hi: bot.MaxBots}
	// loadRunKind: load's -n, at least one.
	loadRunKind = intRange{lo: 1, hi: loadgen.MaxPlayers}
	// connsKind: -max-conns, -max-conns-per-addr: each costs a goroutine
	// and its socket's buffers.
	connsKind = intRange{lo: 1, hi: 1 << 20}
	// queueKind: -send-queue, in frames.
	queueKind = intRange{lo: 1, hi: 1 << 20}
	// bufferKind: -write-buffer in bytes; 0 keeps the system's default.
	bufferKind = intRange{lo: 0, hi: 64 << 20}
	// stallKind: -write-timeout.
	stallKind = durationRange{min: 100 * time.Millisecond}
	// sessionsKind: -max-players, -max-players-per-addr, -ssh-per-addr,
	// -ssh-max: each session is a player.
	sessionsKind = intRange{lo: 1, hi: world.MaxPlayersCap}
	// roomsKind: load's -rooms, 0 for the default room alone; -max-rooms
	// takes at least 1 (the default room).
	roomsKind    = intRange{lo: 0, hi: protocol.MaxRooms}
	maxRoomsKind = intRange{lo: 1, hi: protocol.MaxRooms}
	// rateLimitKind: -join-rate, -room-rate, -lobby-rate, -lobby-rate-total.
	rateLimitKind = intRange{lo: 1, hi: 1 << 20}
	// spectatorsKind: -spectators-per-addr, of a room's spectator slots.
	spectatorsKind = intRange{lo: 1, hi: world.MaxSpectatorsCap}
	// queueBytesKind: -send-queue-bytes: at least the largest frame.
	queueBytesKind = intRange{lo: 1 << 16, hi: 1 << 30}
	// loadFloorKind: -load-floor, 0 for from the first member.
	loadFloorKind = intRange{lo: 0, hi: 1 << 20}
	// recordsKind: -ssh-records, 0 for none.
	recordsKind = intRange{lo: 0, hi: 100000}
	// seedKind: -seed, any 64-bit number.
	seedKind = intRange{lo: math.MinInt64, hi: math.MaxInt64}
)

// durationRange is a kind of duration flag: from min to max (no upper
// bound if max is 0), a whole number of unit if unit is not 0.
type durationRange struct {
	min, max, unit time.Duration
}

// String is the range, as errors and -help show it.
func (r durationRange) String() string {
	switch {
	case r.max > 0:
		return fmt.Sprintf("%s to %s", showDuration(r.min), showDuration(r.max))
	case r.min > 0:
		return fmt.Sprintf("at least %s", showDuration(r.min))
	}
	return "0 or more"
}

// showDuration writes d as Go does, but 0 as "0" and without the zero
// minutes and seconds Go writes after hours ("100h", not "100h0m0s";
// "25m", not "25m0s"): as a person writes it, and as a flag takes it.
func showDuration(d time.Duration) string {
	if d == 0 {
		return "0"
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// check refuses d if it is not of the kind.
func (r durationRange) check(d time.Duration) error {
	switch {
	case d < r.min || (r.max > 0 && d > r.max):
		return fmt.Errorf("out of range (%v)", r)
	case r.unit > 0 && d%r.unit != 0:
		return fmt.Errorf("not a whole number of %v", r.unit)
	}
	return nil
}

// parse reads a Go duration. A number without a unit is refused with a
// hint: the number in milliseconds, or in seconds if that is too short.
func (r durationRange) parse(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err == nil {
		return d, nil
	}
	n, nerr := strconv.ParseFloat(s, 64)
	if nerr != nil {
		return 0, errors.New("not a duration, e.g. 250ms or 1.5s")
	}
	unit := "ms"
	if time.Duration(n*float64(time.Millisecond)) < r.min {
		unit = "s"
	}
	return 0, fmt.Errorf("a duration needs a unit, e.g. %s%s", s, unit)
}

// intRange is a kind of whole-number flag: lo to hi.
type intRange struct{ lo, hi int64 }

// String is the range, as errors and -help show it.
func (r intRange) String() string { return fmt.Sprintf("%d to %d", r.lo, r.hi) }

// check refuses n if it is out of the range.
func (r intRange) check(n int64) error {
	if n < r.lo || n > r.hi {
		return fmt.Errorf("out of range (%v)", r)
	}
	return nil
}
