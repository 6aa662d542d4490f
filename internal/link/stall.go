package link

import "time"

// Stall makes a lag spike on the line: nothing is delivered after now and
// before now+d. Whatever was due in that window, or is sent during it, is
// delivered at now+d or later, in order, as a stuck TCP connection releases
// its backlog all at once. Messages due at or before now are not held.
func (l *Line[T]) Stall(now, d time.Duration) {
	if d <= 0 {
		return
	}
	end := now + d
	for i := l.head; i < len(l.queue); i++ {
		q := &l.queue[i]
		if q.at > now && q.at < end {
			q.at = end
		}
		if q.arrive > now && q.arrive < end {
			q.arrive = end
		}
	}
	l.floor = max(l.floor, end)
	l.stall = max(l.stall, end)
}
