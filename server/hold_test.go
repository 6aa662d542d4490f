package server

import (
	"fmt"
	"net"
	"net/netip"
	"strings"
	"testing"
	"time"

	"gridlag/internal/names"
	"gridlag/internal/ratelog"
	"gridlag/protocol"
	"gridlag/server/hub"
	"gridlag/server/world"
	"gridlag/server/world/worldtest"
)

// Attacks on what addresses share (rooms, spectator slots, the lobby,
// joins), each from one or a few loopback addresses while an honest
// player plays from its own: the attack is refused, saying why, and the
// honest player plays on, every input acknowledged.

// firstAnswer connects from local, sends ms and returns the first
// message the server answers, then closes.
func firstAnswer(t *testing.T, ts *testServer, local string, ms ...protocol.Message) protocol.Message {
	t.Helper()
	c := dialFrom(t, ts, local)
	defer c.nc.Close()
	for _, m := range ms {
		c.send(m)
	}
	m, err := c.recv()
	if err != nil {
		t.Fatalf("from %s: %v", local, err)
	}
	return m
}

// refusedWith fails unless m is an Error whose text has text.
func refusedWith(t *testing.T, what string, m protocol.Message, text string) {
	t.Helper()
	e, ok := m.(*protocol.Error)
	if !ok || !strings.Contains(e.Text, text) {
		t.Fatalf("%s: got %#v, want an Error saying %q", what, m, text)
	}
}

// watchRoom keeps a spectator of room from local, which holds it open.
func watchRoom(t *testing.T, ts *testServer, local, room string) *testClient {
	t.Helper()
	c := dialFrom(t, ts, local)
	c.send(&protocol.Spectate{Version: protocol.Version, Name: "watcher", Room: room})
	m, err := c.recv()
	if err != nil {
		t.Fatalf("spectate %q from %s: %v", room, local, err)
	}
	if _, ok := m.(*protocol.Spectating); !ok {
		t.Fatalf("spectate %q from %s: got %#v, want Spectating", room, local, m)
	}
	return c
}

// TestRoomChurnIsRateLimited (issue 19, row 2): one address naming a
// fresh room again and again opens RoomRate rooms, then is refused,
// saying so, while a player from another address plays on.
func TestRoomChurnIsRateLimited(t *testing.T) {
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20}, JoinRate: 10000, RoomRate: 30}})
	h := playHonestly(t, ts, "127.0.0.3", "")
	began := time.Now()
	opened, refused := 0, 0
	for i := range 200 {
		switch m := firstAnswer(t, ts, "127.0.0.2", &protocol.Spectate{Version: protocol.Version, Name: "churn", Room: fmt.Sprint("churn-", i)}).(type) {
		case *protocol.Spectating:
			opened++
		case *protocol.Error:
			refusedWith(t, "a room over the rate", m, "rate limited: too many new rooms from your address, at most 30 a minute")
			refused++
		default:
			t.Fatalf("got %#v", m)
		}
	}
	// A minute's worth at once, then one every 2 s.
	if most := 30 + int(time.Since(began)/(2*time.Second)) + 1; opened > most || refused == 0 {
		t.Errorf("one address opened %d rooms (%d refused), want at most %d", opened, refused, most)
	}
	h.finish(10)
	if n := strings.Count(ts.logs.String(), "too many new rooms"); n > 2 {
		t.Errorf("%d refusals wrote %d log lines at once, want them summarised", refused, n)
	}
}

// TestJoinFloodIsRateLimited (row 9): on a 1024x1024 map every join is
// sent 225 KB of map; one address joining as fast as it can is answered
// JoinRate joins a second (JoinBurst seconds' worth at once), the others
// refused, saying so, while a player from another address plays on.
func TestJoinFloodIsRateLimited(t *testing.T) {
	m, spawn := worldtest.BigMap(t, 1024)
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Map: m, Spawn: spawn, Rate: 20}}})
	h := playHonestly(t, ts, "127.0.0.3", "")
	began := time.Now()
	welcomed, refused := 0, 0
	for i := range 150 {
		join := []protocol.Message{
			&protocol.Hello{Version: protocol.Version, Name: fmt.Sprint("amp-", i)},
			&protocol.Spectate{Version: protocol.Version, Name: "amp"},
			&protocol.Resume{Version: protocol.Version, Token: protocol.Token{1, byte(i)}},
		}[i%3]
		// Answered: a Welcome, a Spectating, or an Error of the Core's (a
		// token it does not know, a share held), all after a look at it.
		if m, ok := firstAnswer(t, ts, "127.0.0.2", join).(*protocol.Error); ok && strings.Contains(m.Text, "rate limited") {
			refusedWith(t, "a join over the rate", m, "too many joins from your address, at most 10 a second")
			refused++
		} else {
			welcomed++
		}
	}
	if most := hub.DefaultJoinRate*hub.JoinBurst + int(time.Since(began)*hub.DefaultJoinRate/time.Second) + 1; welcomed > most || refused == 0 {
		t.Errorf("one address had %d joins answered, %d refused for the rate; want at most %d answered", welcomed, refused, most)
	}
	h.finish(10)
}

// TestRoomShares (row 5): one address opens at most RoomsPerAddr rooms;
// once the rooms open leave only the reserve, an address that opened some
// is refused and one that opened none opens one; a player from another
// address plays on throughout.
func TestRoomShares(t *testing.T) {
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20}, MaxRooms: 16, RoomsPerAddr: 4}})
	h := playHonestly(t, ts, "127.0.0.9", "")
	spectate := func(room string) protocol.Message {
		return &protocol.Spectate{Version: protocol.Version, Name: "holder", Room: room}
	}
	for _, a := range []string{"127.0.0.2", "127.0.0.3", "127.0.0.4"} {
		for i := range 4 {
			watchRoom(t, ts, a, fmt.Sprint(a, "-", i))
		}
		refusedWith(t, "a fifth room from "+a, firstAnswer(t, ts, a, spectate(a+"-x")), "too many rooms from your address: it opened 4")
	}
	// 13 open with the default room: the last 2 (an eighth) are kept.
	watchRoom(t, ts, "127.0.0.5", "five")
	refusedWith(t, "a room from an address that opened one, with the reserve left", firstAnswer(t, ts, "127.0.0.5", spectate("five-2")),
		"the last 2 are kept for addresses that opened none")
	watchRoom(t, ts, "127.0.0.6", "six")
	watchRoom(t, ts, "127.0.0.7", "seven")
	refusedWith(t, "a room over MaxRooms", firstAnswer(t, ts, "127.0.0.8", spectate("eight")), "server busy: 16 rooms open")
	// Rooms that exist are shared: anyone may join them.
	watchRoom(t, ts, "127.0.0.8", "seven")
	h.finish(5)
}

// TestSpectatorShares (row 5): one address takes at most
// SpectatorsPerAddr of a room's spectator slots, and the last slots go to
// addresses watching the room from none; the room's player plays on.
func TestSpectatorShares(t *testing.T) {
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20, MaxSpectators: 8}, SpectatorsPerAddr: 3}})
	h := playHonestly(t, ts, "127.0.0.9", "class")
	h.waitMoves(1)
	spectate := &protocol.Spectate{Version: protocol.Version, Name: "eyes", Room: "class"}
	for range 3 {
		watchRoom(t, ts, "127.0.0.2", "class")
	}
	refusedWith(t, "a fourth spectator from one address", firstAnswer(t, ts, "127.0.0.2", spectate), "too many spectators from your address: 3 watch this room")
	for range 3 {
		watchRoom(t, ts, "127.0.0.3", "class")
	}
	watchRoom(t, ts, "127.0.0.4", "class")
	// 7 of 8: the last one (an eighth) is kept for an address watching from none.
	refusedWith(t, "a spectator from an address that has one, with the reserve left", firstAnswer(t, ts, "127.0.0.4", spectate),
		"the last 1 places of this room are kept")
	watchRoom(t, ts, "127.0.0.5", "class") // the projector
	refusedWith(t, "a spectator over MaxSpectators", firstAnswer(t, ts, "127.0.0.6", spectate), "spectators full: 8 of 8")
	// Another room's slots are its own.
	watchRoom(t, ts, "127.0.0.2", "")
	h.finish(5)
}

// TestResumeCountsAgainstTheNewAddress (row 8): a player kept for resume
// counts against its address's MaxPlayersPerAddr; resumed from another
// address that holds its share, it is refused, and from its own it comes
// back. One address cannot gather more than its share that way.
func TestResumeCountsAgainstTheNewAddress(t *testing.T) {
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20, Resume: 30 * time.Second}, MaxPlayersPerAddr: 2}})
	h := playHonestly(t, ts, "127.0.0.9", "")
	var tokens []protocol.Token
	for i := range 2 {
		c := dialFrom(t, ts, "127.0.0.2")
		tokens = append(tokens, c.join(fmt.Sprint("away-", i)).Token)
		c.nc.Close() // dropped: kept for resume, counted for 127.0.0.2
	}
	eventually(t, func() bool { return ts.Stats().Away == 2 }, func() string { return "the players were not kept away" })
	for i := range 2 {
		dialFrom(t, ts, "127.0.0.3").join(fmt.Sprint("there-", i))
	}
	resume := func(tok protocol.Token) protocol.Message {
		return &protocol.Resume{Version: protocol.Version, Token: tok}
	}
	refusedWith(t, "a resume from an address at its cap", firstAnswer(t, ts, "127.0.0.3", resume(tokens[0])),
		"too many players from your address: 2 joined")
	// 127.0.0.2 holds 2 (away): a new player from it is refused, its own
	// players come back.
	refusedWith(t, "a join from an address whose players are away", firstAnswer(t, ts, "127.0.0.2",
		&protocol.Hello{Version: protocol.Version, Name: "third"}), "too many players from your address")
	back := dialFrom(t, ts, "127.0.0.2")
	back.send(resume(tokens[0]))
	if w, ok := back.until("the Welcome", func(m protocol.Message) bool {
		_, ok := m.(*protocol.Welcome)
		_, bad := m.(*protocol.Error)
		return ok || bad
	}).(*protocol.Welcome); !ok {
		t.Fatalf("a resume from the player's own address was refused")
	} else if w.Players[0].Name != "away-0" {
		t.Errorf("resumed as %q", w.Players[0].Name)
	}
	if st := ts.Stats(); st.Players != 5 || st.Resumes != 1 {
		t.Errorf("stats %+v: want 5 players, 1 resume", st)
	}
	h.finish(5)
}

// TestLobbyFloodIsRateLimited (row 4): one address asking for the room
// list as fast as it can is answered LobbyRate lists a second
// (LobbyBurst seconds' worth at once), then refused, saying so; a lobby
// from another address is answered, and a player plays on.
func TestLobbyFloodIsRateLimited(t *testing.T) {
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20}, LobbyRate: 10}})
	h := playHonestly(t, ts, "127.0.0.9", "")
	c := dialFrom(t, ts, "127.0.0.2")
	list := &protocol.ListRooms{Version: protocol.Version}
	for range 100 {
		c.send(list)
	}
	lists := 0
	for {
		m, err := c.recv()
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := m.(*protocol.Rooms); ok {
			lists++
			continue
		}
		refusedWith(t, "a room list over the rate", m, "rate limited: too many room lists from your address, at most 10 a second")
		break
	}
	if lists < 10*hub.LobbyBurst || lists > 10*hub.LobbyBurst+5 {
		t.Errorf("%d lists answered before the refusal, want about %d", lists, 10*hub.LobbyBurst)
	}
	if _, ok := firstAnswer(t, ts, "127.0.0.3", list).(*protocol.Rooms); !ok {
		t.Error("a lobby from another address was not answered")
	}
	h.finish(5)
}

// TestOnlyTheServersOwnBotsAreBots (row 10): a Hello that says it is a bot
// is believed on the server's own connections (Dial from Own, its bots)
// and from Options.BotAddrs only: from anyone else it joins as a person,
// so a name reserved for bots is refused; so is one from a front end in
// the process that dials as its player's address (an SSH player).
func TestOnlyTheServersOwnBotsAreBots(t *testing.T) {
	ts := startServer(t, Options{
		Hub:      hub.Options{Config: world.Config{Rate: 20}, MaxPlayersPerAddr: 1},
		BotAddrs: []netip.Prefix{netip.MustParsePrefix("127.0.0.5/32")},
	})
	h := playHonestly(t, ts, "127.0.0.9", "")
	claim := func(name string) *protocol.Hello {
		return &protocol.Hello{Version: protocol.Version, Name: name, Bot: true}
	}
	refusedWith(t, "a Hello from a stranger saying it is bot-1", firstAnswer(t, ts, "127.0.0.2", claim("bot-1")), "name refused: name is reserved for bots")
	dialFrom(t, ts, "127.0.0.2").join("not-a-bot") // joins, as a person
	if st := ts.Stats(); st.Bots != 0 || st.Players != 2 {
		t.Fatalf("stats %+v: want 2 players and no bot", st)
	}
	ssh := dialIn(t, ts, &net.TCPAddr{IP: net.ParseIP("127.0.0.6"), Port: 50022})
	ssh.send(claim("bot-7"))
	m, err := ssh.recv()
	if err != nil {
		t.Fatal(err)
	}
	refusedWith(t, "an in-process player dialed as its SSH address saying it is bot-7", m, "name refused: name is reserved for bots")
	// The server's own: no per-address cap (1 here), its word believed.
	for i := range 3 {
		own := dialIn(t, ts, Own)
		own.send(claim(fmt.Sprint("bot-", i+1)))
		if _, ok := own.until("the Welcome", func(m protocol.Message) bool {
			_, w := m.(*protocol.Welcome)
			_, e := m.(*protocol.Error)
			return w || e
		}).(*protocol.Welcome); !ok {
			t.Fatalf("the server's own bot-%d was refused", i+1)
		}
	}
	c := dialFrom(t, ts, "127.0.0.5") // an address the operator allows bots from
	c.send(claim("bot-9"))
	if _, ok := c.until("the Welcome", func(m protocol.Message) bool { _, w := m.(*protocol.Welcome); return w }).(*protocol.Welcome); !ok {
		t.Fatal("a bot from an allowed address was refused")
	}
	eventually(t, func() bool { return ts.Stats().Bots == 4 }, func() string { return fmt.Sprintf("stats %+v: want 4 bots", ts.Stats()) })
	h.finish(5)
}

// TestLookAlikeNamesAreNumbered (row 10): in one room no two players
// share a name up to look-alikes (case, Cyrillic, fullwidth, digits for
// letters): a newcomer whose name is or looks like one taken plays under
// the first free numbered variant of it (honest-2, honest-3, ...), which
// the Welcome tells it, so a class whose machines share one user name all
// play and nobody passes for another; nobody may stack heavy combining
// marks; another room has its own names.
func TestLookAlikeNamesAreNumbered(t *testing.T) {
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20}}})
	h := playHonestly(t, ts, "127.0.0.9", "")
	h.waitMoves(1)
	hello := func(name, room string) protocol.Message {
		return &protocol.Hello{Version: protocol.Version, Name: name, Room: room}
	}
	seen := map[string]string{names.Key("honest"): "honest"}
	for _, fake := range []string{"honest", "Honest", "h\u043enest", "\uff48\uff4f\uff4e\uff45\uff53\uff54", "h0nest", "HONEST"} {
		c := dialFrom(t, ts, "127.0.0.2")
		defer c.nc.Close()
		c.send(hello(fake, ""))
		m, err := c.recv()
		w, ok := m.(*protocol.Welcome)
		if err != nil || !ok || len(w.Players) != 1 {
			t.Fatalf("%q, a look-alike of the honest player's name: got %#v (%v), want a Welcome under a name of its own", fake, m, err)
		}
		name := w.Players[0].Name
		if want := fake + "-"; !strings.HasPrefix(name, want) {
			t.Errorf("%q plays as %q, want a numbered variant %s2, %s3, ...", fake, name, want, want)
		}
		if other, taken := seen[names.Key(name)]; taken {
			t.Errorf("%q plays as %q, which is or looks like %q", fake, name, other)
		}
		seen[names.Key(name)] = name
	}
	refusedWith(t, "a name of heavy marks", firstAnswer(t, ts, "127.0.0.2", hello("z\u0300\u0301\u0302\u0303\u0304", "")), "combining marks")
	w, ok := firstAnswer(t, ts, "127.0.0.2", hello("h\u043enest", "elsewhere")).(*protocol.Welcome)
	if !ok || w.Players[0].Name != "h\u043enest" {
		t.Errorf("another room: got %#v, want a name only taken in the default room as it is", w)
	}
	h.finish(5)
}

// TestAwayPlayerYieldsItsNameToItsAddress: a player kept for resume holds
// its name against others (who play under a numbered variant of it), but
// a newcomer of that name from its own address (a client restarted, an
// SSH player without a key) takes it, and the away avatar leaves.
func TestAwayPlayerYieldsItsNameToItsAddress(t *testing.T) {
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20, Resume: 30 * time.Second}}})
	c := dialFrom(t, ts, "127.0.0.2")
	c.join("ann")
	c.nc.Close()
	eventually(t, func() bool { return ts.Stats().Away == 1 }, func() string { return "ann was not kept away" })
	other := dialFrom(t, ts, "127.0.0.3")
	other.send(&protocol.Hello{Version: protocol.Version, Name: "ann"})
	if m, _ := other.recv(); !welcomedAs(m, "ann-2") {
		t.Fatalf("ann from another address while ann is away: got %#v, want a Welcome as ann-2", m)
	}
	dialFrom(t, ts, "127.0.0.2").join("ann")
	if st := ts.Stats(); st.Players != 2 || st.Away != 0 {
		t.Errorf("stats %+v: want ann and ann-2, nobody away", st)
	}
}

// welcomedAs reports whether m is a Welcome to a player called name.
func welcomedAs(m protocol.Message, name string) bool {
	w, ok := m.(*protocol.Welcome)
	return ok && len(w.Players) == 1 && w.Players[0].Name == name
}

// TestChurnLogIsBounded (row 6): joins, leaves, rooms opened and closed,
// spectators come and gone, 100 times each from one address, write a few
// lines a kind per summary interval, not one each; the honest player's
// own join is logged at once.
func TestChurnLogIsBounded(t *testing.T) {
	ts := startServer(t, Options{Hub: hub.Options{Config: world.Config{Rate: 20}, JoinRate: 100000, RoomRate: 100000}, MaxConnsPerAddr: 1000})
	began := time.Now()
	for i := range 100 {
		c := dialFrom(t, ts, "127.0.0.2")
		c.join(fmt.Sprint("churn-", i))
		c.send(&protocol.Bye{Reason: "churn"})
		c.closed()
		w := watchRoom(t, ts, "127.0.0.2", fmt.Sprint("churn-", i))
		w.nc.Close()
	}
	h := playHonestly(t, ts, "127.0.0.9", "")
	h.finish(5)
	ts.waitLog(t, "remote=127.0.0.9")
	logs := ts.logs.String()
	intervals := int(time.Since(began)/ratelog.DefaultInterval) + 1
	lines := 0
	for _, l := range strings.Split(logs, "\n") {
		if strings.Contains(l, "127.0.0.2") && !strings.HasPrefix(l, "DEBU") {
			lines++
		}
	}
	// join, leave, room opened, room closed, spectator joined and left:
	// each at once and in a summary per interval.
	if most := 6 * 2 * intervals; lines > most {
		t.Errorf("500 events from one address wrote %d lines, want at most %d:\n%s", lines, most, logs)
	}
}
