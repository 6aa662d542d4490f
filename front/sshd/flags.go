package sshd

import (
	"gridlag/front/remote"
	"gridlag/internal/cli"
	"gridlag/lab/record"
)

// DefaultRecordMax is the largest SSH player's recording: about two
// hours of play.
const DefaultRecordMax = 16 << 20

// RegisterFlags registers the SSH front end's settings with their
// defaults: the host key (HostKeyPath as it is now is the default), the
// caps and timeouts, and the players' recordings (Recordings, allocated
// here; Keep 0 means SSH players cannot record). The address to listen
// on is the caller's: whoever binds it.
func (o *Options) RegisterFlags(fs *cli.FlagSet) {
	fs.StringVar(&o.HostKeyPath, "ssh-key", o.HostKeyPath, "SSH host key `FILE` (ed25519, created on first start)")
	fs.Int(&o.MaxPerAddr, "ssh-per-addr", DefaultMaxPerAddr, cli.Sessions, "SSH sessions at once from one address")
	fs.Int(&o.MaxSessions, "ssh-max", DefaultMaxSessions, cli.Sessions, "SSH sessions at once in all")
	fs.Int(&o.MaxHandshakes, "ssh-handshakes", DefaultMaxHandshakes, cli.Sessions, "SSH connections at once still in their handshake (apart from the players)")
	fs.Int(&o.MaxHandshakesPerAddr, "ssh-handshakes-per-addr", DefaultMaxHandshakesPerAddr, cli.Sessions, "of which from one address")
	remote.RegisterAttemptFlags(fs, "ssh", &o.Attempts, &o.AttemptBurst, "SSH connections", "closed as it arrives, before its key exchange, with a line saying why")
	fs.Duration(&o.IdleTimeout, "ssh-idle", DefaultIdleTimeout, cli.Timeout, "an SSH session without a key press for this long ends")
	fs.Duration(&o.HandshakeTimeout, "ssh-handshake", DefaultHandshakeTimeout, cli.Timeout, "time an SSH connection has to finish its handshake and start the game")
	fs.Duration(&o.BannerTimeout, "ssh-banner", DefaultBannerTimeout, cli.Timeout, "time a new SSH connection has to send its banner (the version line every client sends at once)")
	if o.Recordings == nil {
		o.Recordings = &remote.Recordings{}
	}
	r := o.Recordings
	fs.Int(&r.Keep, "ssh-records", remote.DefaultKeep, remote.KeepRange, "SSH players' game recordings kept (ssh -t HOST record; fetched with ssh HOST recording > game.rec), the oldest removed first; 0 = SSH players cannot record")
	fs.Size(&r.Max, "ssh-record-max", DefaultRecordMax, record.SizeRange, "the largest SSH player's recording: it stops there, saying so")
}
