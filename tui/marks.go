package tui

import (
	"cmp"
	"hash/fnv"
	"slices"
	"strings"
	"unicode"

	"github.com/rivo/uniseg"

	"gridlag/client"
	"gridlag/grid"
	"gridlag/protocol"
)

// A room's marks: every screen that draws a room's players (a player's
// board and scoreboard, the spectator's and the projector's, the
// teacher's, the lab's three boards, in a terminal, over SSH or in a
// browser) marks each with the one character roomMarks gives it, from
// the players the screen knows by name. Names that share a first letter
// (stud2, stud3, stud4, stud5, a classroom's logins) are told apart by
// the first character where each differs from the others (2, 3, 4, 5),
// as the lab's Player 1 and Player 2 are by 1 and 2; a name alone on
// its first letter keeps it. The marks depend on the players' IDs and
// names only, not on the order a screen lists them in, so that screens
// that know the same players (every screen of a room of up to
// world.ScoreboardTop+1 players: their scoreboards name everyone) mark
// them alike.

// markee is a player as roomMarks takes it: its ID and its name.
type markee struct {
	ID   grid.PlayerID
	Name string
}

// markPool is where a player whose own characters are all taken finds
// its mark, in this order.
// Upper case comes first: names are mostly lower case, and a mark that
// differs from another only in case is taken last.
var markPool = []string(strings.Split("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyzαβγδεζηθλμξπσφψω", ""))

// roomMarks returns the mark of each of players (an ID listed twice
// counts once, under its first name), never the same for two while
// there are characters to go round (past markPool, a player is drawn by
// its first character again):
//
//  1. a player whose first character no other's shares (case aside)
//     keeps it: ada is "a" beside bob's "b";
//  2. the others, people before bots (whose marks are drawn on a block
//     of their colour, and whose names are all alike), each by ID (the
//     first to come keeps its mark as others join), take the first free
//     letter or digit of their name from where it differs from the name
//     nearest it (stud2 beside stud3 is "2", alice beside anna "l"),
//     else the last free digit of their name, else the first free
//     character of markPool.
//
// A mark is one character one column wide. A name's own character is
// taken only when no mark is the same in either case (S beside s is
// hard to tell on a board); the pool's only when no mark is the same.
func roomMarks(players []markee) map[grid.PlayerID]string {
	type entry struct {
		id     grid.PlayerID
		bot    bool
		chars  []string // the name's characters, "" for one wider than a column
		folded []string // the same, lower case
	}
	seen := make(map[grid.PlayerID]bool, len(players))
	entries := make([]entry, 0, len(players))
	for _, p := range players {
		if seen[p.ID] {
			continue
		}
		seen[p.ID] = true
		e := entry{id: p.ID, bot: isBot(p.Name)}
		rest := strings.TrimSpace(protocol.SanitizeName(p.Name))
		state := -1
		for rest != "" {
			var g string
			var w int
			g, rest, w, state = uniseg.FirstGraphemeClusterInString(rest, state)
			if w != 1 {
				g = ""
			}
			e.chars = append(e.chars, g)
			e.folded = append(e.folded, strings.ToLower(g))
		}
		entries = append(entries, e)
	}
	firstOf := func(e *entry) string {
		if len(e.folded) == 0 {
			return ""
		}
		return e.folded[0]
	}
	sharing := map[string]int{}
	for i := range entries {
		sharing[firstOf(&entries[i])]++
	}
	marks := make(map[grid.PlayerID]string, len(entries))
	taken := map[string]bool{}
	for i := range entries {
		if f := firstOf(&entries[i]); f != "" && sharing[f] == 1 {
			c := entries[i].chars[0]
			marks[entries[i].id], taken[c] = c, true
		}
	}
	// Where each name differs from the nearest: past its longest common
	// prefix with a neighbour in the order of the folded names.
	byName := make([]*entry, 0, len(entries))
	for i := range entries {
		if marks[entries[i].id] == "" {
			byName = append(byName, &entries[i])
		}
	}
	slices.SortFunc(byName, func(a, b *entry) int {
		return cmp.Or(slices.Compare(a.folded, b.folded), cmp.Compare(a.id, b.id))
	})
	differs := make(map[grid.PlayerID]int, len(byName))
	for i, e := range byName {
		k := 0
		if i > 0 {
			k = commonPrefix(e.folded, byName[i-1].folded)
		}
		if i+1 < len(byName) {
			k = max(k, commonPrefix(e.folded, byName[i+1].folded))
		}
		differs[e.id] = k
	}
	slices.SortFunc(byName, func(a, b *entry) int {
		if a.bot != b.bot {
			return map[bool]int{false: -1, true: 1}[a.bot]
		}
		return cmp.Compare(a.id, b.id)
	})
	pool := 0
	for _, e := range byName {
		mark := ""
		take := func(i int) {
			if c := e.chars[i]; c != "" && !taken[e.folded[i]] && !taken[strings.ToUpper(c)] && !taken[c] {
				mark = c
			}
		}
		for i := differs[e.id]; i < len(e.chars) && mark == ""; i++ {
			if r := []rune(e.chars[i]); len(r) == 1 && (unicode.IsLetter(r[0]) || unicode.IsDigit(r[0])) {
				take(i)
			}
		}
		for i := len(e.chars) - 1; i >= 0 && mark == ""; i-- {
			if r := []rune(e.chars[i]); len(r) == 1 && unicode.IsDigit(r[0]) {
				take(i)
			}
		}
		for ; mark == "" && pool < len(markPool); pool++ {
			if c := markPool[pool]; !taken[c] {
				mark = c
			}
		}
		if mark == "" {
			mark = "?" // more players than characters to go round
			if len(e.chars) > 0 && e.chars[0] != "" {
				mark = e.chars[0]
			}
		}
		marks[e.id] = mark
		taken[mark] = true
	}
	return marks
}

// commonPrefix is how many characters a and b begin with alike.
func commonPrefix(a, b []string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// marks is a screen's marks of its room's players (see roomMarks), made
// again only when the players it knows change: a screen draws every
// frame, and a spectator may know thousands of players. The zero marks
// is ready; it belongs to the screen's goroutine.
type marks struct {
	sum    uint64
	n      int
	byID   map[grid.PlayerID]string
	roster []markee // scratch
}

// take makes the marks of players, unless they are those of the last
// take.
func (m *marks) take(players []markee) {
	h := fnv.New64a()
	var b [2]byte
	for _, p := range players {
		b[0], b[1] = byte(p.ID>>8), byte(p.ID)
		h.Write(b[:])
		h.Write([]byte(p.Name))
		h.Write([]byte{0})
	}
	if m.byID != nil && h.Sum64() == m.sum && len(players) == m.n {
		return
	}
	m.sum, m.n = h.Sum64(), len(players)
	m.byID = roomMarks(players)
}

// of returns the mark of player id, called name: its room mark, or the
// first character of its name for a player the marks do not know.
func (m *marks) of(id grid.PlayerID, name string) string {
	if mark, ok := m.byID[id]; ok {
		return mark
	}
	return playerGlyph(name, 1)
}

// takeView makes the marks of the players a player's view knows: the
// player itself, the others on its board and those on its scoreboard.
func (m *marks) takeView(v *client.View) {
	r := m.roster[:0]
	if v.Me != 0 {
		r = append(r, markee{v.Me, v.Name})
	}
	for _, o := range v.Others {
		r = append(r, markee{o.ID, o.Name})
	}
	r = appendScoreMarkees(r, v.Scoreboard)
	m.roster = r
	m.take(r)
}

// takeWorld makes the marks of the players a server's view lists, and
// of those on its scoreboard.
func (m *marks) takeWorld(v *client.WorldView) {
	r := m.roster[:0]
	for _, p := range v.Players {
		r = append(r, markee{p.ID, p.Name})
	}
	r = appendScoreMarkees(r, v.Scoreboard)
	m.roster = r
	m.take(r)
}

// appendScoreMarkees appends the players of a scoreboard to r.
func appendScoreMarkees(r []markee, board []client.ScoreLine) []markee {
	for _, l := range board {
		if l.Name != "" {
			r = append(r, markee{l.ID, l.Name})
		}
	}
	return r
}
