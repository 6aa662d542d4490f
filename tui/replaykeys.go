package tui

import (
	"time"

	"github.com/gdamore/tcell/v2"
)

// replaySeekKeys are the keys that seek to the next moment of a kind.
var replaySeekKeys = []struct{ key, kind, word string }{{"z", "zap", "zap"}, {"e", "correction", "corr"}, {"l", "loss", "loss"}}

// replaySwitchKeys and replaySwitchWords are the what-if switches' keys
// and their words on the buttons.
var (
	replaySwitchKeys  = map[string]string{"predict": "p", "reconcile": "r", "interpolate": "i", "lagcomp": "c", "datagram": "t"}
	replaySwitchWords = map[string]string{"predict": "pred", "reconcile": "recon", "interpolate": "interp", "lagcomp": "lagcomp", "datagram": "datagram"}
)

// replayKeyTable is every key of the replay's screen: its clock, seeking,
// and the what-if's switches. The key handler, the help overlay and
// `gridlag replay -help` read it.
var replayKeyTable = []binding[*ReplayScreen]{
	{label: ".", help: "play / pause (at the end, play starts again)", keys: runeKeys(".", (*ReplayScreen).togglePause)},
	{label: "n", help: "step: pause, then go to the next moment something happens", keys: runeKeys("n", func(s *ReplayScreen) { s.model.Step() })},
	{label: "/", help: "speed: 1x, 1/2, 1/4, 1/10 (slow motion), and 1x again", keys: runeKeys("/", func(s *ReplayScreen) { s.model.SlowDown() })},
	{label: "← →", help: "seek 1 s back / on (click the bar to seek anywhere)", keys: []keyDo[*ReplayScreen]{
		{key: tcell.KeyLeft, do: func(s *ReplayScreen) { s.seekBy(-time.Second) }},
		{key: tcell.KeyRight, do: func(s *ReplayScreen) { s.seekBy(time.Second) }}}},
	{label: "0 Home", help: "back to the start, paused", keys: concat(runeKeys("0", (*ReplayScreen).restart),
		[]keyDo[*ReplayScreen]{{key: tcell.KeyHome, do: (*ReplayScreen).restart}})},
	{label: "z e l", help: "seek to the next zap, correction (error) or lost message", keys: concat(
		runeKeys("z", func(s *ReplayScreen) { s.model.SeekNext("zap") }),
		runeKeys("e", func(s *ReplayScreen) { s.model.SeekNext("correction") }),
		runeKeys("l", func(s *ReplayScreen) { s.model.SeekNext("loss") }))},
	{label: "p r i", help: "what-if: prediction, reconciliation, interpolation on/off", keys: concat(
		runeKeys("p", func(s *ReplayScreen) { s.model.Toggle("predict") }),
		runeKeys("r", func(s *ReplayScreen) { s.model.Toggle("reconcile") }),
		runeKeys("i", func(s *ReplayScreen) { s.model.Toggle("interpolate") }))},
	{label: "c t", help: "what-if: lag compensation on/off (server); transport TCP/datagram", keys: concat(
		runeKeys("c", func(s *ReplayScreen) { s.model.Toggle("lagcomp") }),
		runeKeys("t", func(s *ReplayScreen) { s.model.Toggle("datagram") }))},
	{label: "○", help: "the recording's avatar, where a what-if moved the player"},
	{label: "Tab", help: "next board, when the terminal shows one at a time", keys: []keyDo[*ReplayScreen]{
		{key: tcell.KeyTab, do: (*ReplayScreen).nextBoard}}},
	{label: "mouse", help: "click any [button], or the bar to seek"},
	helpBinding[*ReplayScreen](),
	quitBinding[*ReplayScreen](),
}

// ReplayKeyHelp returns one line per row of the replay's key table, for
// `gridlag replay -help`.
func ReplayKeyHelp() []string { return tableHelp(replayKeyTable) }
