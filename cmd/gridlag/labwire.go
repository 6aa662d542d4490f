package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"gridlag/ops/wirecost"
)

// measureWire runs gridlag lab -wire: what a move costs the wire over
// each front end, measured on a server of its own on loopback, printed;
// with the OpenSSH client at sshPath too, if there is one.
func measureWire(out io.Writer, sshPath string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	o := wirecost.Options{}
	if sshPath != "" {
		c, err := wirecost.FindOpenSSH(ctx, sshPath)
		if err != nil {
			fmt.Fprintf(out, "No OpenSSH client measured (-wire-ssh %s): %v\n", sshPath, err)
		} else {
			o.OpenSSH = c
		}
	}
	fmt.Fprintln(out, "Measuring what a move costs the wire: a game server, its SSH and web front ends")
	fmt.Fprintln(out, "and a player of each, on 127.0.0.1 (about 40 s, a minute more with OpenSSH)...")
	res, err := wirecost.Run(ctx, o)
	for _, r := range res {
		fmt.Fprintln(out, strings.Join(r.Lines(), "\n"))
	}
	if err != nil {
		return fmt.Errorf("-wire: %w", err)
	}
	if lines := wirecost.ChaffLines(res); lines != nil {
		fmt.Fprintln(out, strings.Join(lines, "\n"))
	}
	fmt.Fprintln(out, "Up is toward the server, down toward the player. Counted by the front ends and")
	fmt.Fprintln(out, "read from the kernel (TCP_INFO); in a game, o shows the same counters for your")
	fmt.Fprintln(out, "own connection. See docs/wire-cost.md.")
	return nil
}
