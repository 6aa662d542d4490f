package client

// Cause is why the server's word moved the predicted avatar: a
// correction's cause, counted per cause (Instruments.Causes).
type Cause uint8

// The causes of a correction.
const (
	// CauseOther: the server disagreed, and did not say why (the client
	// did not ask for its stages: it may have been the speed limit).
	CauseOther Cause = iota
	// CauseBlocked: another player stood where the prediction went (the
	// articles' case that only the server's word can settle).
	CauseBlocked
	// CauseSpeedLimit: the server's speed limit refused a move the
	// client predicted (inputs bunched up on the way).
	CauseSpeedLimit
	// CauseNoReconcile: reconciliation is off: the pending inputs were
	// not replayed on top of the server's word, and the avatar jumps back.
	CauseNoReconcile
	// CauseFrozen: a zap froze the player before the client knew, and the
	// server did not apply the moves it predicted.
	CauseFrozen
	// NumCauses is how many causes there are.
	NumCauses
)

var causeText = [NumCauses]string{
	CauseOther:       "the server disagreed",
	CauseBlocked:     "blocked by another player",
	CauseSpeedLimit:  "refused by the speed limit",
	CauseNoReconcile: "no reconciliation: pending inputs not replayed",
	CauseFrozen:      "frozen by a zap",
}

// causeShort names each cause in a word or two, for a narrow column.
var causeShort = [NumCauses]string{
	CauseOther:       "other",
	CauseBlocked:     "blocked",
	CauseSpeedLimit:  "speed limit",
	CauseNoReconcile: "no reconcile",
	CauseFrozen:      "freeze",
}

// String says why, in the words of the panel: "blocked by another
// player".
func (c Cause) String() string {
	if c < NumCauses {
		return causeText[c]
	}
	return "cause?"
}

// Short names the cause in a word or two: "blocked", "speed limit".
func (c Cause) Short() string {
	if c < NumCauses {
		return causeShort[c]
	}
	return "?"
}
