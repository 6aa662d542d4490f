package loadgen

import (
	"errors"
	"syscall"
	"time"
)

// cpuTime is the CPU time this process has used so far, in user space
// and in the kernel; err says why it is unknown.
type cpuTime struct {
	user, sys time.Duration
	err       error
}

// readCPU returns the process's CPU time (getrusage), or why the system
// does not say.
func readCPU() cpuTime {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return cpuTime{err: err}
	}
	return cpuTime{user: time.Duration(ru.Utime.Nano()), sys: time.Duration(ru.Stime.Nano())}
}

// since is the CPU time used from then until c.
func (c cpuTime) since(then cpuTime) cpuTime {
	if err := errors.Join(then.err, c.err); err != nil {
		return cpuTime{err: err}
	}
	return cpuTime{user: c.user - then.user, sys: c.sys - then.sys}
}
