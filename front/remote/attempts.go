package remote

import (
	"fmt"

	"gridlag/internal/cli"
	"gridlag/server/admit"
)

// AttemptsRange is the range of -web-attempts and -ssh-attempts (a
// minute), and of their bursts.
var AttemptsRange = cli.IntRange{Lo: 1, Hi: 1 << 20}

// RegisterAttemptFlags registers a front end's rate of new connections
// from one address (admit.Attempts) as -FRONT-attempts and
// -FRONT-attempts-burst; what names one such connection ("WebSockets",
// "SSH connections") and refusal what becomes of one past the rate.
func RegisterAttemptFlags(fs *cli.FlagSet, front string, rate, burst *int, what, refusal string) {
	fs.Int(rate, front+"-attempts", admit.DefaultAttempts, AttemptsRange,
		fmt.Sprintf("new %s one address may open a minute; one past it is %s", what, refusal))
	fs.Int(burst, front+"-attempts-burst", admit.DefaultAttemptBurst, AttemptsRange,
		fmt.Sprintf("how many of -%s-attempts may come at once: a class behind one address starting together", front))
}

// SetAttemptDefaults replaces a front end's rate of new connections from
// one address, and its burst, by the defaults where zero or less.
func SetAttemptDefaults(rate, burst *int) {
	*rate = admit.Or(*rate, admit.DefaultAttempts)
	*burst = admit.Or(*burst, admit.DefaultAttemptBurst)
}
