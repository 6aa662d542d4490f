package remote

import (
	"io"
	"net"

	"github.com/charmbracelet/log"

	"gridlag/internal/ratelog"
	"gridlag/server/admit"
)

// SessionLog is where a remote session's lines go. Those that come once a
// session (its start, its end, a refusal, the watchdog's end, a dropped
// avatar kept for resume) go to the front end's summarised log, keyed by
// the client's address (admit.Key), the line's message and its kind (a
// reason): the first of an interval is logged at once, with the
// session's user and address, the others from that address counted in
// one summary line, so that an address opening sessions by the thousand,
// or a class behind one address, costs a few lines per interval, not a
// few per session. Errors that should never happen (a panic) go to the
// log at once. Its zero value discards everything; without a summarised
// log, every line goes to the log at once.
type SessionLog struct {
	sum     *ratelog.Log
	log     *log.Logger
	key     string
	keyvals []any
}

// NewSessionLog returns the log of a session of user from addr: its
// summarised lines to sum, its others to l.
func NewSessionLog(sum *ratelog.Log, l *log.Logger, user string, addr net.Addr) *SessionLog {
	return &SessionLog{sum: sum, log: l, key: admit.Key(addr), keyvals: []any{"user", user, "remote", addr.String()}}
}

// Info logs msg, summarised with the others of its kind from the address.
func (s *SessionLog) Info(kind, msg string, keyvals ...any) {
	switch {
	case s == nil:
	case s.sum != nil:
		s.sum.Info(s.summaryKey(kind, msg), msg, s.with(keyvals)...)
	case s.log != nil:
		s.log.Info(msg, s.with(keyvals)...)
	}
}

// Warn is Info at warning level.
func (s *SessionLog) Warn(kind, msg string, keyvals ...any) {
	switch {
	case s == nil:
	case s.sum != nil:
		s.sum.Warn(s.summaryKey(kind, msg), msg, s.with(keyvals)...)
	case s.log != nil:
		s.log.Warn(msg, s.with(keyvals)...)
	}
}

// Error logs msg at once, unsummarised.
func (s *SessionLog) Error(msg string, keyvals ...any) {
	if s != nil && s.log != nil {
		s.log.Error(msg, s.with(keyvals)...)
	}
}

// Logger is a logger of the session's own lines for the game client and
// the interface running in it (corrections, a lost connection, the
// session's end as the interface saw it): at debug level only, as the
// session's end line says what matters of them, summarised; at the
// front end's own level when that is debug.
func (s *SessionLog) Logger() *log.Logger {
	if s == nil || s.log == nil {
		return log.New(io.Discard)
	}
	l := s.log.With(s.keyvals...)
	if l.GetLevel() > log.DebugLevel {
		l.SetLevel(log.ErrorLevel)
	}
	return l
}

func (s *SessionLog) summaryKey(kind, msg string) string {
	return msg + "\x00" + s.key + "\x00" + kind
}

func (s *SessionLog) with(keyvals []any) []any {
	return append(append(make([]any, 0, len(s.keyvals)+len(keyvals)), s.keyvals...), keyvals...)
}
