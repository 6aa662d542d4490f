package wire

import (
	"regexp"
	"strconv"
)

var opensshVersion = regexp.MustCompile(`OpenSSH_(\d+)\.(\d+)\S*`)

// OpenSSH reads an OpenSSH version out of s (a client's version line,
// or what ssh -V says): its name ("OpenSSH_10.0p2") and whether it sends
// keystroke-timing chaff to a server that advertises ping@openssh.com
// (OpenSSH 9.5 and later, ObscureKeystrokeTiming on by default); ok is
// false when s names no OpenSSH.
func OpenSSH(s string) (name string, chaffs, ok bool) {
	m := opensshVersion.FindStringSubmatch(s)
	if m == nil {
		return "", false, false
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	return m[0], major > 9 || major == 9 && minor >= 5, true
}
