package lab

import (
	"fmt"
	"strings"
)

// Speed is how fast the lab's virtual clock runs against the wall clock.
// The zero value is full speed.
type Speed uint8

// The speeds the lab offers, fastest first.
const (
	Full    Speed = iota // 1x: the virtual clock keeps the wall clock's pace
	Half                 // 1/2
	Quarter              // 1/4
	Tenth                // 1/10: one wall second is 100 ms of virtual time
)

var speeds = [...]struct {
	name    string
	divisor int64
}{{"1x", 1}, {"1/2", 2}, {"1/4", 4}, {"1/10", 10}}

// String returns the speed as the screen and the -speed flag write it:
// 1x, 1/2, 1/4 or 1/10.
func (s Speed) String() string {
	if int(s) >= len(speeds) {
		return fmt.Sprintf("Speed(%d)", uint8(s))
	}
	return speeds[s].name
}

// Next returns the next slower speed, and full speed after the slowest:
// the speed key cycles with it.
func (s Speed) Next() Speed { return (s + 1) % Speed(len(speeds)) }

// divisor is how many wall nanoseconds make one virtual nanosecond.
func (s Speed) divisor() int64 { return speeds[s%Speed(len(speeds))].divisor }

// ParseSpeed reads a speed written as String writes it (1x, 1/2, 1/4,
// 1/10; 1 for 1x).
func ParseSpeed(text string) (Speed, error) {
	t := strings.TrimSpace(text)
	if t == "1" {
		return Full, nil
	}
	names := make([]string, len(speeds))
	for i, s := range speeds {
		if t == s.name {
			return Speed(i), nil
		}
		names[i] = s.name
	}
	return Full, fmt.Errorf("lab: speed %q: want one of %s", text, strings.Join(names, ", "))
}
