package tui

import (
	"strings"
	"testing"
)

// TestChaffNoteSaysWhatTheClientDoes: over SSH the wire overlay tells a
// player on OpenSSH 9.5 or later that their ssh sends keystroke-timing
// chaff and how to turn it off, one on an older OpenSSH that it sends
// none, and any other client what OpenSSH does.
func TestChaffNoteSaysWhatTheClientDoes(t *testing.T) {
	for version, want := range map[string]string{
		"SSH-2.0-OpenSSH_10.0p2 Debian-7+deb13u4": "Your OpenSSH_10.0p2 sends keystroke-timing chaff",
		"SSH-2.0-OpenSSH_9.5":                     "Your OpenSSH_9.5 sends keystroke-timing chaff",
		"SSH-2.0-OpenSSH_9.2p1 Debian-2+deb12u10": "Your OpenSSH_9.2p1 sends no keystroke-timing chaff",
		"SSH-2.0-PuTTY_Release_0.81":              "OpenSSH 9.5+ sends keystroke-timing chaff",
		"":                                        "OpenSSH 9.5+ sends keystroke-timing chaff",
	} {
		note := strings.Join(chaffNote(version), " ")
		if !strings.HasPrefix(note, want) {
			t.Errorf("%q: the overlay says %q; want it to start %q", version, note, want)
		}
		if strings.Contains(want, "sends keystroke") && !strings.Contains(note, "ObscureKeystrokeTiming=no") {
			t.Errorf("%q: %q does not say how to turn the chaff off", version, note)
		}
		for _, l := range chaffNote(version) {
			if n := len([]rune(l)); n > 76 {
				t.Errorf("%q: a line of %d columns does not fit the overlay at 80x24: %q", version, n, l)
			}
		}
	}
}
