//go:build !unix

package server

import "syscall"

// writev writes bufs to descriptor fd, one after the other, until the
// socket takes less than a piece.
func writev(fd uintptr, bufs [][]byte) (int, error) {
	n := 0
	for _, b := range bufs {
		k, err := syscall.Write(int(fd), b)
		n += max(k, 0)
		if err != nil || k < len(b) {
			return n, err
		}
	}
	return n, nil
}
