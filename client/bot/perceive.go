package bot

import (
	"gridlag/client"
	"gridlag/internal/perception"
	"gridlag/protocol"
)

// Perceive is a bot's answer to its room's perception test: in a round's
// answer phase that v shows not answered yet, observer o judges the round
// trip the client measured last (v.RTT: the play phase lasts seconds,
// the client pings as a round begins and every second) and the bot
// answers laggy or not; ok is false when there is nothing to answer.
func Perceive(v client.View, o *perception.Observer) (laggy, ok bool) {
	p := v.Perception
	if p == nil || p.Phase != protocol.TrialAnswer || p.Answer != protocol.NoVerdict {
		return false, false
	}
	return o.Judge(v.RTT) == perception.Laggy, true
}
