//go:build unix

package server

import "golang.org/x/sys/unix"

// writev writes bufs to descriptor fd in one system call (what a
// non-blocking socket takes of them).
func writev(fd uintptr, bufs [][]byte) (int, error) {
	if len(bufs) == 1 {
		return unix.Write(int(fd), bufs[0])
	}
	return unix.Writev(int(fd), bufs)
}
