//go:build !linux

package server

// poller is Linux's (poll_linux.go): elsewhere a goroutine reads each
// connection (read).
type poller struct{}

func newPoller(*Server, *shard) *poller { return nil }
func (*poller) add(*conn)               {}
func (*poller) wakeConn(*conn)          {}
func (*poller) wake()                   {}
func (*poller) run()                    {}
