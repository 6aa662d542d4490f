package admit

import "time"

// Or is v, or d where v is zero or less: how a front end's cap or time
// left unset takes its default.
func Or[T int | time.Duration](v, d T) T {
	if v <= 0 {
		return d
	}
	return v
}
