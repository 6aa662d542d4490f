// Package notify wakes a goroutine that waits on a channel, without ever
// blocking the one that wakes it.
package notify

// Poke sends a wake-up on ch if it has room, and otherwise does nothing:
// a full ch (buffered, usually of one) already holds a wake-up its reader
// has yet to take, which wakes it just as well. It never blocks, so a
// writer, a reader's callback or a lock's holder may poke a screen, a
// shard or a heartbeat without waiting on it. A nil ch is never ready:
// Poke does nothing.
func Poke(ch chan<- struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}
