package wirecost

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"gridlag/internal/wire"
)

// The real OpenSSH client's runs (Options.OpenSSH): as it plays by
// default, and with its keystroke-timing chaff turned off.
const (
	FrontOpenSSH        = "openssh"         // ssh as it comes
	FrontOpenSSHNoChaff = "openssh-nochaff" // ssh -o ObscureKeystrokeTiming=no
)

// OpenSSH is a real OpenSSH client: its path and the version it says
// it is.
type OpenSSH struct {
	Path    string
	Version string // "OpenSSH_10.0p2"
	chaffs  bool
}

// Chaffs says whether this client sends keystroke-timing chaff to a
// server that advertises ping@openssh.com (OpenSSH 9.5 and later: the
// ObscureKeystrokeTiming option, on by default).
func (c OpenSSH) Chaffs() bool { return c.chaffs }

// FindOpenSSH asks the ssh at path (a name looked up in PATH) which
// OpenSSH it is.
func FindOpenSSH(ctx context.Context, path string) (OpenSSH, error) {
	p, err := exec.LookPath(path)
	if err != nil {
		return OpenSSH{}, err
	}
	out, err := exec.CommandContext(ctx, p, "-V").CombinedOutput()
	if err != nil {
		return OpenSSH{}, fmt.Errorf("%s -V: %v: %s", p, err, strings.TrimSpace(string(out)))
	}
	name, chaffs, ok := wire.OpenSSH(string(out))
	if !ok {
		return OpenSSH{}, fmt.Errorf("%s -V says %q: not OpenSSH", p, strings.TrimSpace(string(out)))
	}
	return OpenSSH{Path: p, Version: name, chaffs: chaffs}, nil
}

// args are the client's arguments for one run against port: no
// configuration of the user's, no key (the server lets anyone in with
// keyboard-interactive and no question), and, for FrontOpenSSHNoChaff,
// no chaff.
func (c OpenSSH) args(frontName, port string) ([]string, error) {
	args := []string{"-F", "/dev/null", "-t", "-p", port,
		"-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null", "-o", "GlobalKnownHostsFile=/dev/null",
		"-o", "LogLevel=ERROR", "-o", "PubkeyAuthentication=no", "-o", "PreferredAuthentications=keyboard-interactive"}
	switch frontName {
	case FrontOpenSSH:
	case FrontOpenSSHNoChaff:
		if !c.Chaffs() {
			return nil, errors.New(c.Version + " has no ObscureKeystrokeTiming (OpenSSH 9.5 and later)")
		}
		args = append(args, "-o", "ObscureKeystrokeTiming=no")
	default:
		return nil, fmt.Errorf("no OpenSSH run %q", frontName)
	}
	return append(args, "openssh@127.0.0.1"), nil
}

// openOpenSSH runs the real ssh client in a terminal of 80x24 of its
// own (a pseudo-terminal: it types the arrow keys there and reads what
// the game draws) against the stack's SSH front end.
func (st *stack) openOpenSSH(ctx context.Context, frontName string) (player, error) {
	if st.opts.OpenSSH.Path == "" {
		return nil, errors.New("no OpenSSH client given (Options.OpenSSH)")
	}
	_, port, _ := strings.Cut(st.sshAddr, "127.0.0.1:")
	args, err := st.opts.OpenSSH.args(frontName, port)
	if err != nil {
		return nil, err
	}
	t, err := startInTerminal(st.opts.OpenSSH.Path, args, st.opts.Term, 80, 24)
	if err != nil {
		return nil, err
	}
	p, err := st.awaitPlayer(ctx)
	if err != nil {
		t.close()
		<-t.done
		return nil, fmt.Errorf("%w (ssh: %s)", err, t.said())
	}
	return &termPlayer{ts: p, done: t.done, send: t.write, closer: t.close}, nil
}
