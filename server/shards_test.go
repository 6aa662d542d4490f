package server

import (
	"testing"
)

// TestTCPShardsQueueATickAtOnce runs clients that each check their own
// acknowledgements and every player in view on a server of four shards
// that encode and queue every flush at once, each its own connections'
// (a tick's States, the Joins, the Pongs): under the race detector, no
// two touch the same bytes, and every client gets its frames in order.
func TestTCPShardsQueueATickAtOnce(t *testing.T) {
	defer func(p, s int) { parallelQueue, shardsAtLeast = p, s }(parallelQueue, shardsAtLeast)
	parallelQueue, shardsAtLeast = 1, 4
	TestTCPManyClientsEachGetTheirOwnAck(t)
}
