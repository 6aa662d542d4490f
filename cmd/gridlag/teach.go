package main

import (
	"context"
	"fmt"
	"net"
	"os"

	"github.com/charmbracelet/log"
	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/client/tcp"
	"gridlag/server"
	"gridlag/tui"
)

// teachHere runs the teacher's screen of room -teach on this terminal,
// over a teacher's connection into the server g (whoever runs the server
// teaches), until the teacher quits or a signal comes; then the server
// stops as after a signal: the students are warned for -drain (a second
// signal closes at once).
func teachHere(ctx context.Context, f gameFlags, g *game, logger *log.Logger, logPath string, sigs chan os.Signal, sd shutdown) error {
	dial := func(ctx context.Context, _ string) (net.Conn, error) { return g.srv.DialTeacher(ctx, server.Own) }
	w, err := tcp.ConnectSpectator(ctx, g.addr, tcp.Options{
		Options: client.Options{Name: f.name, Room: f.teach, Teach: true},
		Dial:    dial, Logger: logger.WithPrefix("teacher"),
	})
	if err != nil {
		return fmt.Errorf("-teach: %w", err)
	}
	defer w.Close()
	screen, err := tcell.NewScreen()
	if err != nil {
		return fmt.Errorf("terminal: %w", err)
	}
	// A signal ends the teacher's screen as q does; the watcher gives
	// the signals back to the shutdown once the screen is gone.
	stop, quit, watched := make(chan struct{}), make(chan struct{}), make(chan struct{})
	signalled := make(chan os.Signal, 1)
	go func() {
		defer close(watched)
		select {
		case sig := <-sigs:
			signalled <- sig
			close(stop)
		case <-quit:
		}
	}()
	logger.Info("teaching", "room", f.teach, "name", f.name)
	err = tui.RunTeach(screen, w, tui.Options{LogPath: logPath, Title: "gridlag — teaching" + tui.RoomTitle(f.teach), Logger: logger.WithPrefix("tui"), Stop: stop})
	close(quit)
	<-watched
	w.Close()
	if err != nil {
		logger.Error("teacher's screen", "err", err)
	}
	if f.drain > 0 {
		fmt.Fprintf(os.Stderr, "gridlag: stopping the server: the students are warned for %v (Ctrl-C stops it at once)\n", f.drain)
	}
	select {
	case sig := <-signalled:
		logger.Info("shutting down", "signal", sig.String(), "drain", f.drain)
	default:
		logger.Info("shutting down", "reason", "the teacher quit", "drain", f.drain)
	}
	sd.run(sigs)
	return err
}
