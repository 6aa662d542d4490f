package ratelog

import (
	"sync"
	"time"

	"github.com/charmbracelet/log"
)

// DefaultInterval is the summary interval used when New is given none.
const DefaultInterval = 10 * time.Second

// MaxKeys bounds the events a Log remembers at once. Events of keys beyond
// it share one entry, so that an attacker who varies the key (many source
// addresses) cannot grow the Log's memory.
const MaxKeys = 1024

// otherKey is the shared entry of the keys beyond MaxKeys.
const otherKey = "\x00other"

// Log is a rate-limited warning log. Warn logs the first event of a key
// at once; the repeats within the interval that follows are counted, and
// Flush (or the next event of that key after the interval) logs one summary
// line with their count. It is safe for concurrent use.
type Log struct {
	log   *log.Logger
	every time.Duration
	now   func() time.Time

	mu      sync.Mutex
	entries map[string]*entry
	nextDue time.Time // the earliest end of an open interval
}

// entry is one key's open interval.
type entry struct {
	level   log.Level
	start   time.Time
	msg     string
	keyvals []any // those of the event logged at once
	repeats int   // events counted since
}

// New returns a Log writing to l with summaries every interval
// (DefaultInterval if not positive), reading the time from now (time.Now
// if nil).
func New(l *log.Logger, interval time.Duration, now func() time.Time) *Log {
	if interval <= 0 {
		interval = DefaultInterval
	}
	if now == nil {
		now = time.Now
	}
	return &Log{log: l, every: interval, now: now, entries: make(map[string]*entry)}
}

// Interval is the summary interval.
func (r *Log) Interval() time.Duration { return r.every }

// Warn records one event of key: the first of an interval is logged at
// once as a warning with msg and keyvals; the others are only counted.
func (r *Log) Warn(key, msg string, keyvals ...any) { r.record(log.WarnLevel, key, msg, keyvals) }

// Info is Warn for events that are news rather than trouble, such as a
// player coming back after a drop: logged and summarised at info level.
func (r *Log) Info(key, msg string, keyvals ...any) { r.record(log.InfoLevel, key, msg, keyvals) }

// record logs or counts one event of key at level.
func (r *Log) record(level log.Level, key, msg string, keyvals []any) {
	now := r.now()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.flushLocked(now)
	if _, ok := r.entries[key]; !ok && len(r.entries) >= MaxKeys {
		key, msg, keyvals, level = otherKey, "more events of other kinds", nil, log.WarnLevel
	}
	if e, ok := r.entries[key]; ok {
		e.repeats++
		return
	}
	e := &entry{level: level, start: now, msg: msg, keyvals: keyvals}
	r.entries[key] = e
	if r.nextDue.IsZero() || now.Add(r.every).Before(r.nextDue) {
		r.nextDue = now.Add(r.every)
	}
	if key == otherKey {
		e.repeats = 1 // not logged at once: the summary counts it
		return
	}
	r.log.Log(level, msg, keyvals...)
}

// Flush logs the summary of every interval that has ended and forgets
// those keys. Owners call it periodically (every Interval or more often)
// so that a summary comes even when the events stop.
func (r *Log) Flush() {
	now := r.now()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.flushLocked(now)
}

func (r *Log) flushLocked(now time.Time) {
	if r.nextDue.IsZero() || now.Before(r.nextDue) {
		return
	}
	r.nextDue = time.Time{}
	for key, e := range r.entries {
		end := e.start.Add(r.every)
		if now.Before(end) {
			if r.nextDue.IsZero() || end.Before(r.nextDue) {
				r.nextDue = end
			}
			continue
		}
		delete(r.entries, key)
		if e.repeats > 0 {
			r.log.Log(e.level, e.msg+" (repeated)", append([]any{"more", e.repeats, "in_last", r.every}, e.keyvals...)...)
		}
	}
}
