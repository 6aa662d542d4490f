package server

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"gridlag/grid"
	"gridlag/internal/cli"
	"gridlag/server/hub"
	"gridlag/server/world"
)

// DefaultMaxPlayers is -max-players' default, sized for a 2-core machine:
// 1,000 players take about a quarter of a core (docs/performance.md). The
// Core's own default, for a Config that gives none, is
// world.DefaultMaxPlayers.
const DefaultMaxPlayers = 1000

// The kinds of the adapter's flags.
var (
	// connsRange: -max-conns, -max-conns-per-addr: each costs a
	// goroutine and its socket's buffers.
	connsRange = cli.IntRange{Lo: 1, Hi: 1 << 20}
	// queueRange: -send-queue, in frames.
	queueRange = cli.IntRange{Lo: 1, Hi: 1 << 20}
	// queueBytesRange: -send-queue-bytes: at least the largest frame.
	queueBytesRange = cli.IntRange{Lo: 1 << 16, Hi: 1 << 30}
	// bufferRange: -write-buffer in bytes; 0 keeps the system's default.
	bufferRange = cli.IntRange{Lo: 0, Hi: 64 << 20}
	// stallRange: -write-timeout.
	stallRange = cli.DurationRange{Min: 100 * time.Millisecond}
	// loadFloorRange: -load-floor, 0 for from the first member.
	loadFloorRange = cli.IntRange{Lo: 0, Hi: 1 << 20}
	// lineMaxRange: -line-max; what waits in line is connections, each
	// one open socket.
	lineMaxRange = cli.IntRange{Lo: 1, Hi: 1 << 20}
)

// RegisterFlags registers the TCP server's caps with its defaults: its
// connections, queues and buffers, who may say it is a bot, the
// admission by load (the hub's TickBudget and LoadFloor) and the player
// cap (its Config's MaxPlayers). The hub's rules and the game numbers
// register themselves (Hub.RegisterFlags, Hub.Config.RegisterFlags). A
// send queue too short for a newcomer's Joins is refused after the parse.
func (o *Options) RegisterFlags(fs *cli.FlagSet) {
	fs.Int(&o.Hub.Config.MaxPlayers, "max-players", DefaultMaxPlayers, cli.Sessions, "players in the world at once (spectators apart)")
	fs.Int(&o.MaxConns, "max-conns", DefaultMaxConns, connsRange, "game connections open at once in all, joined or not")
	fs.Int(&o.MaxConnsPerAddr, "max-conns-per-addr", DefaultMaxConnsPerAddr, connsRange, "game connections open at once from one address")
	fs.Int(&o.SendQueue, "send-queue", DefaultSendQueue, queueRange, fmt.Sprintf("frames that may wait for a game client before it is dropped as too slow; more than the %d players an area of interest holds", world.MaxAreaPlayers))
	fs.Int(&o.SendQueueBytes, "send-queue-bytes", DefaultSendQueueBytes, queueBytesRange, "bytes that may wait for a game client before it is dropped as too slow")
	fs.Int(&o.WriteBuffer, "write-buffer", DefaultWriteBuffer, bufferRange, "kernel send buffer of each game connection, in bytes: what a client that stops reading can hold")
	fs.Duration(&o.WriteTimeout, "write-timeout", DefaultWriteTimeout, stallRange, "a game client that reads nothing for this long is dropped")
	fs.Checked(&prefixesValue{p: &o.BotAddrs}, "bot-addrs", "addresses or networks (`LIST`, comma-separated, e.g. 127.0.0.0/8) whose players may say they are bots (gridlag bots, gridlag load); default: only the server's own -bots")
	fs.Duration(&o.Hub.TickBudget, "tick-budget", DefaultTickBudget, cli.Length, "newcomers wait in line (-line-wait), or without a line are refused (\"server full: at capacity\"), while the last second's ticks take this long from when they were due until their frames are in the sockets (their 90th percentile), or would with them; 0 = off")
	fs.Int(&o.Hub.LoadFloor, "load-floor", DefaultLoadFloor, loadFloorRange, "nobody is refused for load (-tick-budget) while the server has fewer players and spectators than this: slow ticks with so few are another process's doing")
	fs.Duration(&o.Hub.LineWait, "line-wait", hub.DefaultLineWait, cli.Length, "a newcomer the server cannot take at once (-tick-budget) waits in line and is told its place, unless its wait would pass this; 0 = no line: refused \"server full: at capacity\" instead")
	fs.Int(&o.Hub.LineMax, "line-max", hub.DefaultLineMax, lineMaxRange, "newcomers that may wait in line at once; past it they are refused \"the line is full\" (one address holds at most -max-players-per-addr places, the last eighth only for addresses with nobody in line)")
	fs.Duration(&o.JoinWait, "join-wait", DefaultJoinWait, stallRange, "without a line (-tick-budget 0 or -line-wait 0) the ticks come first: a newcomer's Hello waits for what a tick leaves of its budget, at most this long; past it the newcomer is refused \"server busy\"")
	fs.Check(o.checkSendQueue)
}

// checkSendQueue refuses a send queue too short for a newcomer's Joins:
// it is sent one per player in its area of interest at once, and there
// are at most world.MaxAreaPlayers of those, whatever the number online.
func (o *Options) checkSendQueue() error {
	if o.SendQueue != 0 && o.SendQueue <= world.MaxAreaPlayers {
		return fmt.Errorf("-send-queue %d must be more than %d, the most players one area of interest holds: a newcomer is sent one Join per player in view at once", o.SendQueue, world.MaxAreaPlayers)
	}
	return nil
}

// prefixesValue is a list of IP addresses and networks, comma-separated
// (-bot-addrs 127.0.0.1,10.0.0.0/8); an address alone is a network of
// one.
type prefixesValue struct{ p *[]netip.Prefix }

// String is the list as given, networks in CIDR form.
func (v *prefixesValue) String() string {
	if v.p == nil {
		return ""
	}
	var s []string
	for _, p := range *v.p {
		s = append(s, p.String())
	}
	return strings.Join(s, ",")
}

// Set reads the list, refusing anything that is not an address or a
// network.
func (v *prefixesValue) Set(s string) error {
	var list []netip.Prefix
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if p, err := netip.ParsePrefix(f); err == nil {
			list = append(list, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(f)
		if err != nil {
			return fmt.Errorf("%q is not an IP address or network (127.0.0.1, 10.0.0.0/8)", f)
		}
		list = append(list, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	*v.p = list
	return nil
}

// MapSource is where a server's map comes from, as its command line says:
// a file (-map), or one generated from a size and a seed (-map-gen,
// -seed); neither is the embedded map.
type MapSource struct {
	Path string
	Gen  MapSize
	Seed int64
}

// MapSize is the size of a map to generate; zero means none.
type MapSize struct{ W, H int }

// RegisterFlags registers -map, -map-gen and -seed; the two maps do not
// go together.
func (m *MapSource) RegisterFlags(fs *cli.FlagSet) {
	fs.StringVar(&m.Path, "map", "", "the map, a `FILE` ('#' wall, '.' floor, a line a row); default: the embedded map")
	fs.Checked(&mapSizeValue{p: &m.Gen}, "map-gen", "generate a `WxH` map of rooms and corridors (see -seed) instead of -map")
	fs.Seed(&m.Seed, "seed", 1, "seed of -map-gen: the same seed, the same map")
	fs.Check(func() error {
		if m.Path != "" && m.Gen != (MapSize{}) {
			return fmt.Errorf("-map and -map-gen do not go together")
		}
		return nil
	})
}

// Load returns the map: the file's (LoadMap), the one generated, or nil
// for the embedded one. An error names the flag.
func (m MapSource) Load() (*grid.Map, error) {
	if m.Gen != (MapSize{}) {
		g, err := grid.Generate(m.Gen.W, m.Gen.H, m.Seed)
		if err != nil {
			return nil, fmt.Errorf("-map-gen: %w", err)
		}
		return g, nil
	}
	g, err := LoadMap(m.Path)
	if err != nil {
		return nil, fmt.Errorf("-map: %w", err)
	}
	return g, nil
}

// mapSizeValue is a map size flag, WxH.
type mapSizeValue struct{ p *MapSize }

// String is the size, WxH, or "" for none.
func (v *mapSizeValue) String() string {
	if v.p == nil || *v.p == (MapSize{}) {
		return ""
	}
	return strconv.Itoa(v.p.W) + "x" + strconv.Itoa(v.p.H)
}

// Set reads a size, WxH, each side grid.MinGenSide to grid.MaxMapSide.
func (v *mapSizeValue) Set(s string) error {
	ws, hs, ok := strings.Cut(strings.ToLower(s), "x")
	w, werr := strconv.Atoi(ws)
	h, herr := strconv.Atoi(hs)
	if !ok || werr != nil || herr != nil {
		return fmt.Errorf("not a size WIDTHxHEIGHT, e.g. 200x200")
	}
	if w < grid.MinGenSide || h < grid.MinGenSide || w > grid.MaxMapSide || h > grid.MaxMapSide {
		return fmt.Errorf("out of range (each side %d to %d)", grid.MinGenSide, grid.MaxMapSide)
	}
	*v.p = MapSize{w, h}
	return nil
}
