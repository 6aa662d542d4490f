package notify

import "testing"

// Poke fills a channel's room and no more, never blocking, and does
// nothing on a nil channel.
func TestPokeNeverBlocks(t *testing.T) {
	ch := make(chan struct{}, 1)
	Poke(ch)
	Poke(ch) // full: the wake-up already waiting does
	if len(ch) != 1 {
		t.Fatalf("%d wake-ups waiting, want 1", len(ch))
	}
	<-ch
	Poke(ch)
	if len(ch) != 1 {
		t.Fatalf("after the reader took one: %d waiting, want 1", len(ch))
	}
	Poke(nil)
	Poke(make(chan struct{})) // unbuffered, nobody reading
}
