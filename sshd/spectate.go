package sshd

import (
	"context"
	"fmt"

	"gridlag/client"
	"gridlag/client/tcp"
	"gridlag/tui"
)

// watchGame is the session of a player who asked to watch (ssh host
// spectate): a spectator of the game server at Options.GameAddr, drawn by
// the tui's spectator screen. It takes no player slot; the game server
// caps spectators on their own.
func (s *Server) watchGame(ctx context.Context, p *Player) error {
	logger := s.log.With("user", p.User, "remote", p.RemoteAddr.String())
	w, err := tcp.ConnectSpectator(ctx, s.opts.GameAddr, tcp.Options{Options: client.Options{Name: p.User, Room: p.Room}, Dial: s.dialFor(p), Logger: logger})
	if err != nil {
		return fmt.Errorf("cannot watch the game: %w", err)
	}
	defer w.Close()
	return tui.RunSpectate(p.Screen, w, tui.Options{Title: Title + " — spectating" + tui.RoomTitle(p.Room), Logger: logger})
}
