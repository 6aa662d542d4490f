package tui

import (
	"fmt"

	"github.com/gdamore/tcell/v2"

	"gridlag/protocol"
)

// lobbyNaming is the lobby's state while a new room's name is typed, as
// the help heads its keys.
const lobbyNaming = "typing a new room's name"

// lobbyKeyTable is every key of the lobby: those of the list, then those
// of the name of a new room while it is typed.
var lobbyKeyTable = []binding[*LobbyScreen]{
	{label: "↑ ↓", help: "choose a room (also k j)", brief: "↑↓", group: "choose", keys: []keyDo[*LobbyScreen]{
		{key: tcell.KeyUp, do: func(s *LobbyScreen) { s.move(-1) }},
		{key: tcell.KeyDown, do: func(s *LobbyScreen) { s.move(1) }},
		{key: tcell.KeyRune, ch: 'k', do: func(s *LobbyScreen) { s.move(-1) }},
		{key: tcell.KeyRune, ch: 'j', do: func(s *LobbyScreen) { s.move(1) }},
	}},
	{label: "Enter", help: "join the room chosen", brief: "Enter", group: "join", keys: []keyDo[*LobbyScreen]{
		{key: tcell.KeyEnter, do: (*LobbyScreen).enter},
	}},
	{label: "n", help: "name a new room and join it", brief: "n", group: "new room", keys: []keyDo[*LobbyScreen]{
		{key: tcell.KeyRune, ch: 'n', do: (*LobbyScreen).startNaming},
	}},
	{label: "r", help: "ask for the rooms again now", brief: "r", group: "refresh", keys: []keyDo[*LobbyScreen]{
		{key: tcell.KeyRune, ch: 'r', do: (*LobbyScreen).fetch},
	}},
	helpBinding[*LobbyScreen](),
	quitBinding[*LobbyScreen](),
	{state: lobbyNaming, label: "a b c …", help: fmt.Sprintf("the room's name, up to %d characters", protocol.MaxNameRunes), keys: []keyDo[*LobbyScreen]{
		{key: tcell.KeyRune, ch: anyChar, typed: (*LobbyScreen).typeRune},
	}},
	{state: lobbyNaming, label: "Backspace", help: "rub out the last character", keys: []keyDo[*LobbyScreen]{
		{key: tcell.KeyBackspace, do: (*LobbyScreen).rubOut},
		{key: tcell.KeyBackspace2, do: (*LobbyScreen).rubOut},
	}},
	{state: lobbyNaming, label: "Enter", help: "join the room of that name", keys: []keyDo[*LobbyScreen]{
		{key: tcell.KeyEnter, do: (*LobbyScreen).joinNamed},
	}},
	{state: lobbyNaming, label: "Esc", help: "back to the rooms", keys: []keyDo[*LobbyScreen]{
		{key: tcell.KeyEscape, do: (*LobbyScreen).stopNaming},
	}},
	{state: lobbyNaming, label: "Ctrl-C", help: "quit", keys: []keyDo[*LobbyScreen]{
		{key: tcell.KeyCtrlC, do: (*LobbyScreen).requestQuit},
	}},
}

// LobbyKeyHelp returns one line per row of the lobby's key table, for
// gridlag -help.
func LobbyKeyHelp() []string { return tableHelp(lobbyKeyTable) }

// lobbyHeading heads the rooms' rows (see lobbyRow).
const lobbyHeading = "ROOM              PLAYERS SPEC  ROUND  LEFT"

// render draws the title, the rooms, the "new room" row, the status and
// the keys.
func (s *LobbyScreen) render(screen tcell.Screen) {
	w, h := screen.Size()
	title := s.opts.Title + " — lobby"
	if s.opts.Title == "" {
		title = "gridlag — lobby"
	}
	fill(screen, 0, 0, w, 1, styleTitle)
	putText(screen, 1, 0, w-2, title, styleTitle)
	putText(screen, 2, 2, w-4, lobbyHeading, styleHeading)
	y := 3
	rooms := s.rooms()
	for i, r := range rooms {
		if y >= h-3 {
			break
		}
		s.row(screen, y, w, i, lobbyRow(r))
		y++
	}
	newRow := "+ new room"
	if s.naming() {
		newRow = "+ new room: " + string(s.name) + "_"
	}
	s.row(screen, y, w, len(rooms), newRow)
	status := s.status
	switch {
	case s.list == nil && status == "":
		status = "asking the server for its rooms…"
	case s.naming() && status == "":
		status = "type the room's name, Enter to join it, Esc to go back"
	case s.list != nil && status == "" && int(s.list.Total) > len(rooms):
		// The server cut the list to fit a frame: the busiest are shown.
		status = fmt.Sprintf("the %d busiest of %d rooms open, at most %d; name a room to join it", len(rooms), s.list.Total, s.list.MaxRooms)
	case s.list != nil && status == "":
		status = fmt.Sprintf("%d rooms open, at most %d", len(rooms), s.list.MaxRooms)
	}
	putText(screen, 2, h-2, w-4, status, styleDim)
	putText(screen, 0, h-1, w, tableBottomLine(lobbyKeyTable), styleDim)
}

// row draws row i of the list at y, marked if it is the one chosen.
func (s *LobbyScreen) row(screen tcell.Screen, y, w, i int, text string) {
	if i == s.sel {
		putText(screen, 0, y, 2, ">", styleMe)
		putText(screen, 2, y, w-4, text, styleMe)
		return
	}
	putText(screen, 2, y, w-4, text, styleText)
}
