package sshd

import (
	"net"

	"github.com/gliderlabs/ssh"
	gossh "golang.org/x/crypto/ssh"

	"gridlag/front/remote"
)

// Keys of values this package keeps.
const (
	// fingerprintExtension carries, in the connection's Permissions, the
	// fingerprint of the public key the client proved it holds.
	fingerprintExtension = "gridlag-key-fingerprint"
)

// connKey is the ssh.Context key of a connection's *trackedConn.
type connKey struct{}

// serverConfig is the SSH configuration of every connection. Public key
// authentication accepts any key. The key's fingerprint is returned in the
// Permissions of that attempt: x/crypto keeps the Permissions of the
// method that finally succeeded, so a client that merely offers someone
// else's public key (without its private half) and then joins another way
// does not get their colour.
func serverConfig(ssh.Context) *gossh.ServerConfig {
	return &gossh.ServerConfig{
		PublicKeyCallback: func(_ gossh.ConnMetadata, key gossh.PublicKey) (*gossh.Permissions, error) {
			return &gossh.Permissions{Extensions: map[string]string{
				fingerprintExtension: gossh.FingerprintSHA256(key),
			}}, nil
		},
	}
}

// acceptKeyboardInteractive lets players without a key join: it asks no
// questions and accepts.
func acceptKeyboardInteractive(ssh.Context, gossh.KeyboardInteractiveChallenge) bool { return true }

// attachConn makes the connection's tracking and its counters (see
// countConn) reachable from its sessions.
func attachConn(ctx ssh.Context, c net.Conn) net.Conn {
	if tc, ok := c.(*trackedConn); ok {
		ctx.SetValue(connKey{}, tc)
	}
	return countConn(ctx, c)
}

// authedKey returns the fingerprint and colour of the key the session's
// client authenticated with; ok is false if it joined without a key.
func authedKey(sess ssh.Session) (fingerprint string, color uint8, ok bool) {
	sc, _ := sess.Context().Value(ssh.ContextKeyConn).(*gossh.ServerConn)
	if sc == nil || sc.Permissions == nil {
		return "", 0, false
	}
	fp, ok := sc.Permissions.Extensions[fingerprintExtension]
	if !ok {
		return "", 0, false
	}
	return fp, remote.FingerprintColor(fp), true
}
