package tui

import (
	"strconv"
	"time"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/protocol"
)

// VirtualClock is the clock of a lab or a replay as its screen drives
// it: virtual time that runs at a speed, pauses and steps.
type VirtualClock interface {
	// Sync brings the model up to its clock's time.
	Sync()
	// Now returns the virtual time since the start.
	Now() time.Duration
	// Paused reports whether the clock stands still.
	Paused() bool
	// Pause stops the clock; Resume lets it run again.
	Pause()
	Resume()
	// Step pauses, then moves to the next event and does it.
	Step()
	// Speed names the clock's speed: 1x, 1/2, 1/4 or 1/10.
	Speed() string
	// SlowDown goes to the next slower speed, and to 1x after the
	// slowest.
	SlowDown()
}

// LabModel is what the lab's screen needs from a lab (package lab
// implements it): a server and two players on a virtual clock that can
// run slower than the wall clock, pause and step. The screen calls Sync
// every frame and takes every time it shows from the model, so that
// nothing moves while it is paused. It is used from the screen's loop
// only.
type LabModel interface {
	VirtualClock
	// Rate returns the server's update rate in Hz (0 = one State per
	// processed input); SetRate changes it live.
	Rate() int
	SetRate(hz int)
	// LagComp reports whether the server compensates lag when it judges a
	// zap; SetLagComp switches it live.
	LagComp() bool
	SetLagComp(on bool)
	// LastZap returns the last zap the server judged; ok is false before
	// any.
	LastZap() (z LabZap, ok bool)
	// Scores returns the round's scoreboard as the server has it, most
	// points first.
	Scores() []client.ScoreLine
	// Overview returns the world as the server has it now.
	Overview() client.WorldView
	// Player returns Player 1 (i = 0) or Player 2 (i = 1).
	Player(i int) LabPlayer
	// Caption says in a line what the last Step did; "" before any step
	// and once the clock runs again.
	Caption() string
	// Pings reports whether the strips show the links' background
	// traffic (pings, pongs, the scores); SetPings shows or hides it.
	Pings() bool
	SetPings(on bool)
	// Restart plays the scripted presses again from t=0, with each
	// player's toggles and link, the update rate and the lag compensation
	// as they are now; in a lesson, the step again from its start.
	Restart()
	// Lesson returns what a lesson says now; ok is false outside one.
	Lesson() (l LabLesson, ok bool)
	// Continue goes on with a lesson: from a question to its answer, from
	// the answer on (the clock runs again), from a step's end to the next
	// step (from a part's last step to the next part of a lecture).
	// Outside a lesson it does nothing.
	Continue()
	// NextPart and PrevPart go to the start of a lecture's next or
	// previous part; a free lab offered a lecture starts it with
	// NextPart, and its first part goes back to the free lab with
	// PrevPart. Otherwise they do nothing.
	NextPart()
	PrevPart()
	// Offer names the lecture NextPart starts from the free lab, "" when
	// none is offered (or one is being given).
	Offer() string
	// Perception says where the perception test is: a round of the run in
	// progress (never its round trip), or the last run's results.
	Perception() LabPerception
	// StartPerception starts a run of the test, Player 1 the student;
	// StopPerception ends it (the answers so far kept);
	// AnswerPerception answers a round's question, laggy or fine;
	// ClosePerception closes the last run's results.
	StartPerception()
	StopPerception()
	AnswerPerception(laggy bool)
	ClosePerception()
}

// LabLesson is what a lesson says at the moment (see LabModel.Lesson):
// its title and step, the step's words, the question it asks and, once
// the key is pressed, the answer with what the lab shows.
type LabLesson struct {
	Title string // "Lesson 2: prediction and reconciliation"
	Step  string // "step 1 of 4: the article's case"
	// Say is the step's words, a line each as the lesson file has them.
	Say []string
	// Question is the question asked now, "" if none; Answer its answer
	// once shown; Shows what the lab shows that answers it ("Player 1 is
	// at (12,10)").
	Question, Answer, Shows string
	// Wait names the key press the lesson waits for ("Player 1: press
	// RIGHT"), "" if none.
	Wait string
	// Next says what the continue key does now ("the answer", "go on",
	// "next step"), "" when it does nothing (the clock runs to the next
	// question).
	Next string
	// Lecture is the lecture's title, "" for a lesson given alone; Parts
	// are the labels of its parts ("II: prediction") and Part the one
	// given, from 0.
	Lecture string
	Parts   []string
	Part    int
	// Long says the words come first when one board shows at a time:
	// they take the rows its panel would (a perception part's results).
	Long bool
}

// LabPlayer is one player of a lab: a client session on its own
// simulated link, whose conditions the screen changes and whose messages
// in flight it draws.
type LabPlayer interface {
	client.Session
	// SetJitter sets the injected jitter per message.
	SetJitter(j time.Duration)
	// Loss returns the probability that a message is lost (and
	// retransmitted, as TCP does).
	Loss() float64
	// Preset names the link condition last applied ("" for none).
	Preset() string
	// NextPreset applies the next named condition (latency, jitter and
	// loss), and after the last one the player's own link again.
	NextPreset()
	// Trace names the trace the link follows, a network that changes
	// over time (see link.Trace); "" for none.
	Trace() string
	// Spike stalls the link both ways for a moment: a lag spike.
	Spike()
	// InFlight appends the messages on the player's link, both ways,
	// oldest first each way, to dst.
	InFlight(dst []Flight) []Flight
}

// LabZap is a zap as the server judged it, for the server's board: who
// shot, what it did, where the shooter saw the target and how far back
// the server looked.
type LabZap struct {
	At      time.Duration // on the lab's clock
	Shooter string
	Outcome protocol.ZapOutcome
	Target  string        // the tagged player, or the one that had left the line; "" if none
	Seen    grid.Pos      // where the shooter saw the target
	Judged  grid.Pos      // where the target was in the world the server judged against
	Rewind  time.Duration // 0 without lag compensation
	Beam    []grid.Pos    // the beam as the server traced it, nearest first
}

// FlightKind is what a message in flight is, for its label.
type FlightKind uint8

// The kinds of messages a strip tells apart.
const (
	FlightOther FlightKind = iota // anything else, labelled by Name
	FlightInput                   // an Input: #N and its arrow
	FlightState                   // a State: ack #N
)

// Flight is one message on a player's link, as a strip draws it.
type Flight struct {
	Kind FlightKind
	// Up is true for a message going to the server, false for one coming
	// from it.
	Up bool
	// Seq and Dir are an Input's number and direction; Ack is a State's
	// last processed input; Name names any other message ("ping").
	Seq  uint32
	Dir  grid.Dir
	Ack  uint32
	Name string
	// Progress is how far along its trip the message is: 0 just sent, 1
	// arriving.
	Progress float64
	// Lost is how many times the message is lost before a copy gets
	// through: above zero it waits for a retransmission.
	Lost int
	// Held says it arrives later than its own delay makes it: held by a
	// lag spike or queued behind a lost message.
	Held bool
	// Waiting says it has reached the far end and waits there behind an
	// earlier message (TCP's receive buffer): the strip draws it at that
	// end.
	Waiting bool
	// Resending says it was lost and waits at the sender for its
	// retransmission: the strip draws it at that end.
	Resending bool
}

// label is how the strip writes the message: "#3 →", "ack #3", "ping".
func (f Flight) label() string {
	switch f.Kind {
	case FlightInput:
		return "#" + strconv.FormatUint(uint64(f.Seq), 10) + " " + f.Dir.Arrow()
	case FlightState:
		return "ack #" + strconv.FormatUint(uint64(f.Ack), 10)
	}
	return f.Name
}
