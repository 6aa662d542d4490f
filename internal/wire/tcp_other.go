//go:build !linux

package wire

import (
	"errors"
	"net"
)

// readTCP has no counters to read: TCP_INFO's are Linux's.
func readTCP(*net.TCPConn, bool) (TCP, error) {
	return TCP{}, errors.New("the kernel's TCP counters (TCP_INFO) are read on Linux only")
}
