package protocol

import (
	"fmt"

	"gridlag/grid"
)

// Version is the protocol version this build speaks, and MinVersion the
// oldest it still serves: a server answers a Hello, Resume, Spectate or
// ListRooms of any version from MinVersion to Version in that version's
// form, and refuses any other with an Error of code ErrCodeVersion.
// Version 2: a State carries what changed in the recipient's area of
// interest, and a map too large for a Welcome follows in MapChunks.
// Version 3: a State that changes nothing may travel as a step
// (TypeStateStep). Version 4: a map too large for a Welcome follows as
// MapBits, a compressed bitmap, instead of MapChunks; spawn protection
// (Protect), the room's scoreboard with names and ranks (Ranking, in place
// of Scores), the zap outcomes ZapProtected and ZapTagged, and a room list
// cut to fit a frame carrying how many rooms are open (Rooms.Total). A
// version 3 client gets MapChunks and none of the rest, and every other
// byte as before. Version 5: a teacher sets a room's network and netcode
// (Teach, Conditions), its players report what only they know (Report)
// and its teachers see it (Class); and a client may ask for the server's
// stage times of its inputs (Trace) and is then sent them (Stages) beside
// the States. A client of version 3 or 4 gets none of these, and its
// version's bytes. Version 6: a teacher may give the room's network a
// trace, a network that changes over time (Traces, and Conditions'
// optional Trace and Step; see traces.go); a client of version 5 is sent
// Conditions without them; a spectator is sent the room's scoreboard
// (Ranking), and a room's teacher follows one student (Follow), whose
// client tells what only it sees of itself (Sight), which the room's
// spectators and teachers are shown (Followed); a teacher runs a blind
// perception test in its room (Perceive), whose students are told each
// round but not the round trip it injects (Trial) and answer (Answer),
// and whose teachers and spectators are told its progress and answers
// (Perception); a client of version 5 or before gets none of these. A
// newcomer the server cannot take at once waits in a line instead of
// being refused; the server says its rules of admission (Admission) in
// answer to a Hello or Spectate, then, while the newcomer waits, its
// place and the estimated wait (Queued) until the Welcome (line.go). A
// client of version 5 or older waits in the same line and is told its
// place in Notices.
const (
	Version    uint16 = 6
	MinVersion uint16 = 3
)

// Supported reports whether a peer of version v can be served.
func Supported(v uint16) bool { return v >= MinVersion && v <= Version }

// MapBitsSince is the first version whose big maps follow as MapBits.
const MapBitsSince uint16 = 4

// RoomsTotalSince is the first version whose Rooms, cut to fit a frame,
// carries its Total: a version 3 client gets the same rooms without it.
const RoomsTotalSince uint16 = 4

// Type is the numeric type of a message, the first byte of a frame's body.
type Type uint8

// The message types. Their numbers are part of the wire format: never reuse
// or renumber one.
const (
	TypeHello      Type = 1
	TypeWelcome    Type = 2
	TypeError      Type = 3
	TypeInput      Type = 4
	TypeState      Type = 5
	TypePing       Type = 6
	TypePong       Type = 7
	TypeBye        Type = 8
	TypeJoin       Type = 9
	TypeLeave      Type = 10
	TypeSpectate   Type = 11
	TypeSpectating Type = 12
	TypeOverview   Type = 13
	TypeNotice     Type = 14
	TypeZap        Type = 15
	TypeZapResult  Type = 16
	TypeTagged     Type = 17
	TypeScores     Type = 18
	TypeMapChunk   Type = 19
	TypeResume     Type = 20
	TypeListRooms  Type = 21
	TypeRooms      Type = 22
	// TypeStateStep is a frame type but no message type: the form a State
	// that changes nothing takes on a stream (see StateStream). It decodes
	// to a State; New knows no message of this type.
	TypeStateStep Type = 23
	// TypeMapBits (since version 4) carries a big map as a compressed
	// bitmap; see MapBits.
	TypeMapBits Type = 24
	// TypeProtect and TypeRanking (since version 4): spawn protection,
	// and the room's scoreboard with names and ranks; see Protect and
	// Ranking.
	TypeProtect Type = 25
	TypeRanking Type = 26
	// TypeTeach, TypeConditions, TypeReport and TypeClass (since version
	// 5): a teacher's first message, a room's network and netcode as its
	// teacher set them, a player's report of what only it knows, and the
	// students' reports a teacher is shown; see Teach, Conditions, Report
	// and Class.
	TypeTeach      Type = 27
	TypeConditions Type = 28
	TypeReport     Type = 29
	TypeClass      Type = 30
	// TypeTrace and TypeStages (since version 5): a client asks for the
	// server's stage times of its inputs, and is sent them; see Trace and
	// Stages.
	TypeTrace  Type = 31
	TypeStages Type = 32
	// TypeTraces (since version 6): the traces a server offers a
	// teacher for its room's network; see Traces.
	TypeTraces Type = 33
	// TypeQueued and TypeAdmission (since version 6): a newcomer's place
	// in the server's line, and the server's rules of admission; see
	// Queued and Admission.
	TypeQueued    Type = 34
	TypeAdmission Type = 35
	// TypePerceive, TypeTrial, TypeAnswer and TypePerception (since
	// version 6): a teacher starts or stops a run of the perception
	// test, a student is told its round, a student answers, and the
	// teachers and spectators are told the run and its answers; see
	// Perceive, Trial, Answer and Perception.
	TypePerceive   Type = 36
	TypeTrial      Type = 37
	TypeAnswer     Type = 38
	TypePerception Type = 39
	// TypeFollow, TypeSight and TypeFollowed (since version 6): who a
	// room's teacher follows, what the followed student sees of itself,
	// and that, relayed to the room's spectators; see Follow, Sight and
	// Followed.
	TypeFollow   Type = 40
	TypeSight    Type = 41
	TypeFollowed Type = 42
	// TypeCode and TypeClassCode (since version 6): a student presents
	// its class's code; a teacher is told it, or asks for a new one
	// (classcode.go).
	TypeCode      Type = 43
	TypeClassCode Type = 44
	// TypeCrowd, TypeCrowded and TypeCounters (since version 6): a
	// teacher asks for bots in its room and for its areas of interest on
	// or off, the teachers are told the room's crowd, and once a second
	// the server's own counters; see Crowd, Crowded and Counters.
	TypeCrowd    Type = 45
	TypeCrowded  Type = 46
	TypeCounters Type = 47
)

// String names the message type.
func (t Type) String() string {
	switch t {
	case TypeHello:
		return "Hello"
	case TypeWelcome:
		return "Welcome"
	case TypeError:
		return "Error"
	case TypeInput:
		return "Input"
	case TypeState:
		return "State"
	case TypePing:
		return "Ping"
	case TypePong:
		return "Pong"
	case TypeBye:
		return "Bye"
	case TypeJoin:
		return "Join"
	case TypeLeave:
		return "Leave"
	case TypeSpectate:
		return "Spectate"
	case TypeSpectating:
		return "Spectating"
	case TypeOverview:
		return "Overview"
	case TypeNotice:
		return "Notice"
	case TypeZap:
		return "Zap"
	case TypeZapResult:
		return "ZapResult"
	case TypeTagged:
		return "Tagged"
	case TypeScores:
		return "Scores"
	case TypeMapChunk:
		return "MapChunk"
	case TypeResume:
		return "Resume"
	case TypeListRooms:
		return "ListRooms"
	case TypeRooms:
		return "Rooms"
	case TypeStateStep:
		return "StateStep"
	case TypeMapBits:
		return "MapBits"
	case TypeProtect:
		return "Protect"
	case TypeRanking:
		return "Ranking"
	case TypeTeach:
		return "Teach"
	case TypeConditions:
		return "Conditions"
	case TypeReport:
		return "Report"
	case TypeClass:
		return "Class"
	case TypeTrace:
		return "Trace"
	case TypeStages:
		return "Stages"
	case TypeTraces:
		return "Traces"
	case TypeFollow:
		return "Follow"
	case TypeSight:
		return "Sight"
	case TypeFollowed:
		return "Followed"
	case TypeCode:
		return "Code"
	case TypeClassCode:
		return "ClassCode"
	case TypeQueued:
		return "Queued"
	case TypeAdmission:
		return "Admission"
	case TypePerceive:
		return "Perceive"
	case TypeTrial:
		return "Trial"
	case TypeAnswer:
		return "Answer"
	case TypePerception:
		return "Perception"
	case TypeCrowd:
		return "Crowd"
	case TypeCrowded:
		return "Crowded"
	case TypeCounters:
		return "Counters"
	}
	return fmt.Sprintf("Type(%d)", uint8(t))
}

// Message is one of the message structs of this package.
type Message interface {
	// Type returns the message's numeric type.
	Type() Type
	appendPayload(b []byte) ([]byte, error)
	decodePayload(r *reader) error
}

// Hello is the client's first message.
type Hello struct {
	Version uint16 // the client's protocol version
	Name    string // the player's name; see CheckName
	Bot     bool   // the player is a headless bot (bots spawn away from the human spawn)
	Color   uint8  // the colour the player would like (1 to NumColors), 0 = any
	Room    string // the room to join, "" for the server's default room; optional on the wire (see ListRooms)
}

// Welcome accepts a client: its player ID, the map and the game's numbers,
// and who is already playing. A map of more than MaxInlineMapCells cells
// does not travel in the Welcome (Cells is empty): it follows as MapBits
// (as MapChunks to a client of version 3), see MapFollows.
type Welcome struct {
	Player     grid.PlayerID
	UpdateRate uint16 // server states per second; 0 = one state per processed input
	MoveTimeMS uint16 // the speed limit: one move per this many milliseconds
	Burst      uint8  // moves the server accepts back to back
	MapWidth   uint16
	MapHeight  uint16
	Cells      []byte // MapWidth*MapHeight cells, row-major, '#' or '.'; empty if MapFollows
	Players    []PlayerInfo
	// Token brings this avatar back after a dropped connection (see
	// Resume); zero when the server keeps no avatar for a player who
	// dropped.
	Token Token
	// ResumeS is how many seconds the server keeps a dropped player's
	// avatar for its Token; 0 with the zero Token.
	ResumeS uint16
}

// MapFollows reports whether the map is too large for the Welcome and
// follows it (MapBits, or MapChunks to version 3).
func (w *Welcome) MapFollows() bool { return !inlineMap(w.MapWidth, w.MapHeight) }

// Map builds the grid map the Welcome carries.
func (w *Welcome) Map() (*grid.Map, error) {
	return grid.NewMapFromCells(int(w.MapWidth), int(w.MapHeight), w.Cells)
}

// PlayerInfo describes a player for display.
type PlayerInfo struct {
	ID    grid.PlayerID
	Color uint8 // an index into the client's palette, 1 to NumColors
	Name  string
}

// NumColors is the number of player colours: PlayerInfo.Color and
// Hello.Color are 1 to NumColors.
const NumColors = 8

// Error codes.
const (
	ErrCodeVersion  uint8 = 1 // the Hello's version is not one this build serves (MinVersion to Version)
	ErrCodeName     uint8 = 2 // the Hello's name is not acceptable
	ErrCodeFull     uint8 = 3 // the server has no room
	ErrCodeProtocol uint8 = 4 // a malformed or unexpected message
	ErrCodeSlow     uint8 = 5 // the client does not read fast enough
	ErrCodeFlood    uint8 = 6 // the client sends too much
	ErrCodeTimeout  uint8 = 7 // the client was silent too long
	ErrCodeShutdown uint8 = 8 // the server is stopping
	ErrCodeResume   uint8 = 9 // the Resume's token is unknown, used or expired
	// ErrCodeTeacher (version 5): a Teach or a Conditions from a
	// connection that is not a teacher's.
	ErrCodeTeacher uint8 = 10
	// ErrCodeClass (version 6) is classcode.go's: an unknown class code.
	// ErrCodeRoomFull (version 6): the room the Hello named has no place
	// for another player (its cap of players, or every free cell of its
	// map, taken); the server is not full: another room may take the
	// player now, and waiting does not help. A client of version 5 or
	// older is sent ErrCodeFull with the same text (RoomFullCode).
	ErrCodeRoomFull uint8 = 11
)

// RoomFullSince is the first version sent ErrCodeRoomFull.
const RoomFullSince uint16 = 6

// RoomFullCode is the code of the Error that says a room is full to a
// client of version v: ErrCodeRoomFull from RoomFullSince, ErrCodeFull
// before.
func RoomFullCode(v uint16) uint8 {
	if v >= RoomFullSince {
		return ErrCodeRoomFull
	}
	return ErrCodeFull
}

// Error reports why the sender is about to close the connection.
type Error struct {
	Code uint8
	Text string
}

// Error makes *Error usable as a Go error: its Text, the sentence a
// person reads (the code is for programs and logs), or what the code
// means when the text is empty.
func (e *Error) Error() string {
	if e.Text != "" {
		return e.Text
	}
	switch e.Code {
	case ErrCodeVersion:
		return "the server speaks another version of the protocol"
	case ErrCodeName:
		return "the server refused the name"
	case ErrCodeFull:
		return "the server is full"
	case ErrCodeProtocol:
		return "the server did not understand a message"
	case ErrCodeSlow:
		return "the connection was too slow for the server"
	case ErrCodeFlood:
		return "too many messages for the server"
	case ErrCodeTimeout:
		return "the server heard nothing for too long"
	case ErrCodeShutdown:
		return "the server is stopping"
	case ErrCodeResume:
		return "the server could not resume the session"
	case ErrCodeTeacher:
		return "only a teacher may set a room's network"
	case ErrCodeClass:
		return "unknown class code"
	case ErrCodeRoomFull:
		return "the room is full: another room may have a place"
	}
	return "the server refused the connection"
}

// Input is one numbered key press: a request to move one cell.
type Input struct {
	Seq uint32 // 1, 2, 3... per client
	Dir grid.Dir
}

// State is the server's word on the world, sent to one client: the tick,
// the server time and the recipient's acknowledgement, then what changed in
// its area of interest since the previous State sent to it (TCP delivers
// every State, in order, so the previous one is a safe base). Full marks a
// whole picture of the area: on joining, and when the area jumps.
type State struct {
	Tick    uint32           // the server's update tick
	TimeNS  uint64           // server time of this state, ns since the server started
	Ack     uint32           // the last input Seq the server processed FOR THE RECIPIENT
	Full    bool             // Players is everyone in the area: forget anyone else
	Players []grid.PlayerPos // the players that moved or came into the area, in any order, each once
	Gone    []grid.PlayerID  // the players that left the area, in any order, each once (none when Full)
	// Left are the players the recipient knew that left the game since
	// the State before: forget them, names and all. In any order.
	Left []grid.PlayerID
	// A sender's State may carry more players as Runs of a list that many
	// States share (see SharedPlayers): on the wire they follow Players,
	// and a decoded State has them in Players.
	Shared *SharedPlayers
	Runs   []Run
}

// Ping asks for a Pong with the same Stamp, to measure the round trip.
// Both sides send it: a client to see its own round trip, the server to
// measure each player's, which it shows spectators in the Overview.
type Ping struct {
	Stamp uint64
}

// Pong answers a Ping.
type Pong struct {
	Stamp uint64
}

// Bye closes a connection politely.
type Bye struct {
	Reason string
}

// Join announces a player who entered the world.
type Join struct {
	Player PlayerInfo
}

// Leave announces a player who left the world to a spectator. Players
// hear of it in their next State's Left (so that a crowd leaving at once
// is one frame a player, not one a leaver); one who only walks out of view
// is in its State's Gone instead.
type Leave struct {
	ID grid.PlayerID
}

// Notice is a message from the server's operator for the player to see,
// such as "server stopping in 10 s"; the connection stays open.
type Notice struct {
	Text string
}

// Type implements Message.
func (*Notice) Type() Type { return TypeNotice }

// ByeShutdown is the Reason of the Bye a server says to every client when
// it stops: a normal end, which a client tells its user as such.
const ByeShutdown = "server shutting down"

// Type implements Message.
func (*Hello) Type() Type { return TypeHello }

// Type implements Message.
func (*Welcome) Type() Type { return TypeWelcome }

// Type implements Message.
func (*Error) Type() Type { return TypeError }

// Type implements Message.
func (*Input) Type() Type { return TypeInput }

// Type implements Message.
func (*State) Type() Type { return TypeState }

// Type implements Message.
func (*Ping) Type() Type { return TypePing }

// Type implements Message.
func (*Pong) Type() Type { return TypePong }

// Type implements Message.
func (*Bye) Type() Type { return TypeBye }

// Type implements Message.
func (*Join) Type() Type { return TypeJoin }

// Type implements Message.
func (*Leave) Type() Type { return TypeLeave }

// New returns an empty message of type t, or nil for an unknown type.
func New(t Type) Message {
	switch t {
	case TypeHello:
		return new(Hello)
	case TypeWelcome:
		return new(Welcome)
	case TypeError:
		return new(Error)
	case TypeInput:
		return new(Input)
	case TypeState:
		return new(State)
	case TypePing:
		return new(Ping)
	case TypePong:
		return new(Pong)
	case TypeBye:
		return new(Bye)
	case TypeJoin:
		return new(Join)
	case TypeLeave:
		return new(Leave)
	case TypeSpectate:
		return new(Spectate)
	case TypeSpectating:
		return new(Spectating)
	case TypeOverview:
		return new(Overview)
	case TypeNotice:
		return new(Notice)
	case TypeZap:
		return new(Zap)
	case TypeZapResult:
		return new(ZapResult)
	case TypeTagged:
		return new(Tagged)
	case TypeScores:
		return new(Scores)
	case TypeMapChunk:
		return new(MapChunk)
	case TypeResume:
		return new(Resume)
	case TypeListRooms:
		return new(ListRooms)
	case TypeRooms:
		return new(Rooms)
	case TypeMapBits:
		return new(MapBits)
	case TypeProtect:
		return new(Protect)
	case TypeRanking:
		return new(Ranking)
	case TypeTeach:
		return new(Teach)
	case TypeConditions:
		return new(Conditions)
	case TypeReport:
		return new(Report)
	case TypeClass:
		return new(Class)
	case TypeTrace:
		return new(Trace)
	case TypeStages:
		return new(Stages)
	case TypeTraces:
		return new(Traces)
	case TypeFollow:
		return new(Follow)
	case TypeSight:
		return new(Sight)
	case TypeFollowed:
		return new(Followed)
	case TypeCode:
		return new(Code)
	case TypeClassCode:
		return new(ClassCode)
	case TypeQueued:
		return new(Queued)
	case TypeAdmission:
		return new(Admission)
	case TypePerceive:
		return new(Perceive)
	case TypeTrial:
		return new(Trial)
	case TypeAnswer:
		return new(Answer)
	case TypePerception:
		return new(Perception)
	case TypeCrowd:
		return new(Crowd)
	case TypeCrowded:
		return new(Crowded)
	case TypeCounters:
		return new(Counters)
	}
	return nil
}
