package main

import (
	"context"
	"fmt"

	"github.com/gdamore/tcell/v2"

	"gridlag/client"
	"gridlag/client/tcp"
	"gridlag/tui"
)

// spectateMain watches the server at -connect on the terminal: the
// server's view, no avatar, no player slot.
func spectateMain(ctx context.Context, f gameFlags) error {
	logger, closeLog, path, err := openScreenLog(f.logPath, f.debug)
	if err != nil {
		return err
	}
	defer closeLog()
	opts := tcp.Options{Options: client.Options{Name: f.name, Room: f.room, Latency: f.latency, Jitter: f.jitter, Loss: f.loss}, Logger: logger.WithPrefix("spectator")}
	w, err := tcp.ConnectSpectator(ctx, f.connect, opts)
	if err != nil {
		return err
	}
	defer w.Close()
	screen, err := tcell.NewScreen()
	if err != nil {
		return fmt.Errorf("terminal: %w", err)
	}
	logger.Info("spectating", "server", f.connect, "room", f.room, "name", f.name)
	return tui.RunSpectate(screen, w, tui.Options{LogPath: path, Title: "gridlag — spectating " + f.connect + tui.RoomTitle(f.room), Logger: logger.WithPrefix("tui"), Stop: ctx.Done()})
}
