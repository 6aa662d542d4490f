package bot

import (
	"time"

	"gridlag/client"
	"gridlag/grid"
)

// settleSlack is the time a bot waits, at the end, on top of twice the
// round trip and a step for its last inputs to be acknowledged.
const settleSlack = 2 * time.Second

// settlePoll is how often a settling bot looks again, on top of whatever
// its runner notices.
const settlePoll = 10 * time.Millisecond

// Bot is one headless player's schedule, on a clock its runner gives: it
// walks with a Brain, one press per step, until it is stopped; then it
// presses nothing more and waits, bounded, for its inputs to be
// acknowledged. A Bot does no I/O and never sleeps: Next says what to press
// and when to call again, so a runner may keep the wall clock (Run) or a
// virtual one. It is not safe for concurrent use.
type Bot struct {
	brain   *Brain
	trigger *Trigger      // nil: the bot never zaps
	step    time.Duration // time between presses: the speed limit
	settle  time.Duration // the most a stopped bot waits for its acks

	next     time.Duration // when the walking bot presses next
	last     time.Duration // when it last pressed
	stopped  bool
	quiet    time.Duration // after it, only acknowledgements can come
	until    time.Duration // the end of the wait for them
	unsettle bool          // the wait ended with inputs still pending
}

// NewBot returns a bot that starts walking at time now with brain, one
// press per step, and waits at most settle for its acknowledgements once
// stopped.
func NewBot(brain *Brain, now, step, settle time.Duration) *Bot {
	return &Bot{brain: brain, step: step, settle: settle, next: now + step, last: now - step}
}

// Next returns the direction to press at time now given the client's view
// (grid.None for none, and none while the bot aims: see Aim), and when to
// call Next again; the runner may call
// it sooner, when the view changed. The next press comes one step after
// the last call that pressed or could have, so the client never holds a
// press back for the speed limit: each press is sent at once, on top of
// exactly the pending inputs the brain saw, which is what its guarantee
// about the avoided cells needs. done is true once the bot is stopped and
// its inputs are acknowledged or the wait for them is over (see
// Unsettled).
func (b *Bot) Next(now time.Duration, v client.View) (press grid.Dir, wake time.Duration, done bool) {
	if !b.stopped {
		if now >= b.next {
			if b.trigger.aiming() {
				press = grid.None
			} else if press = b.brain.Next(v); press != grid.None {
				b.last = now
			}
			b.next = now + b.step
		}
		return press, b.next, false
	}
	if now >= b.quiet && len(v.Pending) == 0 {
		return grid.None, now, true
	}
	if now >= b.until {
		b.unsettle = true
		return grid.None, now, true
	}
	return grid.None, min(b.until, now+settlePoll), false
}

// Arm gives the bot a trigger: from then on Aim may zap.
func (b *Bot) Arm(t *Trigger) { b.trigger = t }

// Aim reports whether to zap at time now given the client's view (see
// Trigger), and when to call it again if someone is in line (ok false:
// nobody is, or the bot is unarmed or stopped). A stopped bot never zaps.
// While someone is in line the bot stands still and aims, as a person
// would: call Aim before Next.
func (b *Bot) Aim(now time.Duration, v client.View) (zap bool, wake time.Duration, ok bool) {
	if b.trigger == nil || b.stopped {
		return false, 0, false
	}
	zap, wake, ok = b.trigger.Pull(now, v)
	if zap {
		b.last = now
	}
	return zap, wake, ok
}

// Stop ends the walk at time now: the bot presses nothing more and waits
// for its acknowledgements. Stopping again does nothing.
func (b *Bot) Stop(now time.Duration) {
	if b.stopped {
		return
	}
	b.stopped = true
	// Should a press have been held back all the same, it goes out within
	// one step of the last press or zap; after that only acknowledgements
	// come.
	b.quiet = b.last + b.step
	b.until = now + b.settle
}

// Unsettled reports whether the bot ended its wait with inputs still
// unacknowledged.
func (b *Bot) Unsettled() bool { return b.unsettle }

// Settle returns how long a bot waits at most for its acknowledgements
// once stopped, for a link of the given round trip and jitter and a speed
// limit of one move per step.
func Settle(latency, jitter, step time.Duration) time.Duration {
	return 2*(latency+jitter) + step + settleSlack
}
