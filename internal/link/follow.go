package link

import "time"

// A link that follows a trace applies each step at its time: a line's
// delay, jitter and loss change for the messages sent from then on, and
// a stall holds what is on the way then, and what is sent during it,
// until it ends (see Line.Stall). The order is kept and a loss is a
// retransmission, as ever: the trace changes the conditions, never the
// semantics of TCP. Steps are applied at their own times whenever the
// line is used at or after them (a Send, a Receive, Sync), so that a
// driver on any clock, waking at Next or NextChange, sees every step as
// if it had been applied on the dot.

// stepper is a line as a trace changes it.
type stepper interface {
	applyStep(at time.Duration, s *Step)
}

// follower plays a trace onto one or two lines: the lines of a Link
// share it, so that using either brings both to the same time.
type follower struct {
	tr    *Trace
	start time.Duration // when the trace's time 0 is
	lines [2]stepper    // up, down; nil for a way not followed
	cycle int64         // the repeat under way (0: the first run)
	next  int           // the next step of the cycle to apply
	done  bool          // past the last step of a trace that does not repeat
	// applied counts the steps applied, and last is the last of them
	// with lastAt its time on the link's clock.
	applied int
	last    Step
	lastAt  time.Duration
	// latest returns when the last message on the lines is due (0 for
	// none).
	latest func() time.Duration
}

// nextAt returns when the next step is due on the link's clock.
func (f *follower) nextAt() (time.Duration, bool) {
	if f.done {
		return 0, false
	}
	return f.start + time.Duration(f.cycle)*f.tr.Length + f.tr.Steps[f.next].At, true
}

// sync applies every step due at or before now, each at its own time.
func (f *follower) sync(now time.Duration) {
	for {
		at, ok := f.nextAt()
		if !ok || at > now {
			return
		}
		// Far behind, with nothing on the lines due after the cycles
		// skipped, nor sent before their stalls end: jump over them to
		// a cycle whose start sets every setting again.
		if f.tr.Repeat && f.next == 0 && f.latest() <= at && now-at > MaxTraceStall+2*f.tr.Length {
			f.cycle += int64((now-at-MaxTraceStall)/f.tr.Length) - 1
			continue
		}
		s := &f.tr.Steps[f.next]
		for i, d := range []Dir{DirUp, DirDown} {
			if s.Dir&d != 0 && f.lines[i] != nil {
				f.lines[i].applyStep(at, s)
			}
		}
		f.applied++
		f.last, f.lastAt = *s, at
		f.next++
		if f.next == len(f.tr.Steps) {
			if !f.tr.Repeat {
				f.done = true
				return
			}
			f.next = 0
			f.cycle++
		}
	}
}

// applyStep gives the line the step's settings at time at.
func (l *Line[T]) applyStep(at time.Duration, s *Step) {
	if s.Set&SetDelay != 0 {
		l.delay = s.Delay
	}
	if s.Set&SetJitter != 0 {
		l.jitter = s.Jitter
	}
	if s.Set&SetLoss != 0 {
		l.SetLoss(s.Loss)
	}
	if s.Set&SetStall != 0 {
		l.Stall(at, s.Stall)
	}
}

// latest returns when the last message on the line is due, 0 if none:
// the order is kept, so it is the last sent.
func (l *Line[T]) latest() time.Duration {
	if l.head == len(l.queue) {
		return 0
	}
	return l.queue[len(l.queue)-1].at
}

// sync applies the trace's steps due by now, if the line follows one.
func (l *Line[T]) sync(now time.Duration) {
	if l.follow != nil {
		l.follow.sync(now)
	}
}

// Follow makes the line follow the steps of tr for direction d (DirUp or
// DirDown), tr's time 0 being start on the line's clock; nil stops
// following (the conditions stay as the last step left them). Steps at
// start or before now are applied at the line's next use.
func (l *Line[T]) Follow(tr *Trace, d Dir, start time.Duration) {
	l.follow = nil
	if tr == nil || len(tr.Steps) == 0 {
		return
	}
	f := &follower{tr: tr, start: start}
	if d&DirUp != 0 {
		f.lines[0] = l
	} else {
		f.lines[1] = l
	}
	f.latest = l.latest
	l.follow = f
}

// Follow makes both lines of the link follow tr, its time 0 being start
// on the link's clock: the steps for up on the way up, those for down on
// the way down; nil stops following, the conditions staying as they
// are. A repeating trace plays for ever; one that does not leaves the
// conditions of its last steps.
func (l *Link[Up, Down]) Follow(tr *Trace, start time.Duration) {
	l.Up.follow, l.Down.follow = nil, nil
	if tr == nil || len(tr.Steps) == 0 {
		return
	}
	f := &follower{tr: tr, start: start, lines: [2]stepper{l.Up, l.Down}}
	f.latest = func() time.Duration { return max(l.Up.latest(), l.Down.latest()) }
	l.Up.follow, l.Down.follow = f, f
}

// Sync applies the steps of the trace the link follows that are due by
// now, each at its own time. Send and Receive do it themselves; a
// viewer that lists what is in flight (InFlight) calls it first.
func (l *Link[Up, Down]) Sync(now time.Duration) {
	l.Up.sync(now)
	l.Down.sync(now)
}

// Following returns the trace the link follows and its start, nil if
// none.
func (l *Link[Up, Down]) Following() (tr *Trace, start time.Duration) {
	f := l.Up.follow
	if f == nil {
		f = l.Down.follow
	}
	if f == nil {
		return nil, 0
	}
	return f.tr, f.start
}

// TraceState is where a link is in the trace it follows.
type TraceState struct {
	// Trace is the trace; nil when the link follows none.
	Trace *Trace
	// Applied counts the steps applied so far: it changes at each.
	Applied int
	// Step is the last step applied, at At on the link's clock; the zero
	// Step before the first.
	Step Step
	At   time.Duration
	// Cycle is the trace's run under way, 0 the first (a repeating
	// trace starts again after its length).
	Cycle int64
	// Next is when the next step is due on the link's clock; ok false
	// when none is (a trace that does not repeat, past its last step).
	Next   time.Duration
	NextOK bool
}

// TraceState returns where the link is in the trace it follows.
func (l *Link[Up, Down]) TraceState() TraceState {
	f := l.Up.follow
	if f == nil {
		f = l.Down.follow
	}
	if f == nil {
		return TraceState{}
	}
	s := TraceState{Trace: f.tr, Applied: f.applied, Step: f.last, At: f.lastAt, Cycle: f.cycle}
	s.Next, s.NextOK = f.nextAt()
	return s
}

// NextChange returns when the next step of the trace the link follows
// is due, for a driver to wake then; ok is false when it follows none,
// or none is left.
func (l *Link[Up, Down]) NextChange() (time.Duration, bool) {
	f := l.Up.follow
	if f == nil {
		f = l.Down.follow
	}
	if f == nil {
		return 0, false
	}
	return f.nextAt()
}
