package sshd

import (
	"context"
	"errors"
	"net"
	"strconv"
	"testing"
	"time"

	"gridlag/client"
	"gridlag/client/tcp"
)

// A game client pointed at the SSH port is told at once that it reached
// an SSH server and how to play there: it tells from the first bytes
// (the SSH banner), not from a silence, so it says so although it would
// wait an hour for a silent server, and the lobby's question gets the
// same answer.
func TestGameClientAtTheSSHPort(t *testing.T) {
	s := startSSH(t, Options{GameAddr: "127.0.0.1:1"})
	addr := s.Addr().String()
	want := addr + ` is an SSH server, not a gridlag game port (it said "SSH-2.0-gridlag"): to play there, run ssh -p ` +
		strconv.Itoa(s.Addr().(*net.TCPAddr).Port) + " 127.0.0.1"
	ctx, cancel := context.WithTimeout(context.Background(), waitLong)
	defer cancel()
	opts := tcp.Options{Options: client.Options{Name: "ada", ServerTimeout: time.Hour, Latency: time.Second}}
	type connection interface {
		Done() <-chan struct{}
		Close() error
	}
	for what, connect := range map[string]func() (connection, func() error, error){
		"a player": func() (connection, func() error, error) {
			c, err := tcp.Connect(ctx, addr, opts)
			if err != nil {
				return nil, nil, err
			}
			return c, func() error { return c.View().Err }, nil
		},
		"a spectator": func() (connection, func() error, error) {
			w, err := tcp.ConnectSpectator(ctx, addr, opts)
			if err != nil {
				return nil, nil, err
			}
			return w, func() error { return w.View().Err }, nil
		},
	} {
		c, why, err := connect()
		if err != nil {
			t.Fatal(err)
		}
		select {
		case <-c.Done():
		case <-ctx.Done():
			t.Fatalf("%s at the SSH port is still waiting", what)
		}
		var fe *tcp.ForeignServerError
		if err := why(); !errors.As(err, &fe) || err.Error() != want {
			t.Errorf("%s at the SSH port ended with %v, want %q", what, err, want)
		}
		c.Close()
	}
	if _, err := tcp.ListRooms(ctx, addr); err == nil || err.Error() != want {
		t.Errorf("the lobby's question at the SSH port: %v, want %q", err, want)
	}
	if tcp.HasRooms(ctx, addr) {
		t.Error("an SSH server has rooms")
	}
}
