//go:build linux

package wire

import (
	"net"

	"golang.org/x/sys/unix"
)

// tcpTimestamps is TCP_INFO's tcpi_options bit for the timestamps
// option, 12 bytes on every segment (10 and 2 of padding).
const tcpTimestamps = 1 // TCPI_OPT_TIMESTAMPS

// readTCP reads TCP_INFO of c.
func readTCP(c *net.TCPConn, side bool) (TCP, error) {
	rc, err := c.SyscallConn()
	if err != nil {
		return TCP{}, err
	}
	var info *unix.TCPInfo
	var gerr error
	if err := rc.Control(func(fd uintptr) {
		info, gerr = unix.GetsockoptTCPInfo(int(fd), unix.IPPROTO_TCP, unix.TCP_INFO)
	}); err != nil {
		return TCP{}, err
	}
	if gerr != nil {
		return TCP{}, gerr
	}
	hdr := ipHeader(c) + 20
	if info.Options&tcpTimestamps != 0 {
		hdr += 12
	}
	t := TCP{
		Flow: Flow{Up: int64(info.Bytes_received), Down: int64(info.Bytes_acked),
			UpOps: int64(info.Segs_in), DownOps: int64(info.Segs_out)},
		UpData: int64(info.Data_segs_in), DownData: int64(info.Data_segs_out),
		Header: hdr, Retrans: int64(info.Total_retrans),
	}
	if side == PlayerSide {
		t.Up, t.Down = t.Down, t.Up
		t.UpOps, t.DownOps = t.DownOps, t.UpOps
		t.UpData, t.DownData = t.DownData, t.UpData
	}
	return t, nil
}
