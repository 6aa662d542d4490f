// Package protocol is gridlag's wire format: length-prefixed binary frames
// with explicit numeric message types.
//
// A frame is a 2-byte big-endian length N, then N bytes: one byte of message
// type and the message's payload. N is at least 1 and at most MaxFrame. All
// integers are big-endian; a string is a 1-byte length followed by that many
// bytes of UTF-8.
//
// A connection starts with the client's Hello, which carries Version; the
// server answers Welcome, or Error and closes. A server serves every
// version from MinVersion to Version, each in its own form: the one
// difference so far is how a map too big for the Welcome follows it,
// MapChunks for version 3 and MapBits (a compressed bitmap) from version
// 4 on. After that the client sends
// Input, Zap, Ping, Pong and Bye (and from version 5 Trace); the server
// sends State, ZapResult, Tagged, Scores, Ping, Pong, Join, Leave, Error
// and Bye, to a client of version 4 on, Protect and Ranking (in place of
// Scores), and to a client of version 5 that asked with Trace, a Stages
// before each State that acknowledges inputs; version 5 also adds a
// teacher's Teach, Conditions, Report and Class (teach.go), and version 6
// the traces a teacher may give a room's network (Traces, and the
// optional Trace and Step last in a Conditions, absent for a client of
// version 5; traces.go). A server serves
// every version from MinVersion to Version (Supported), each the bytes of
// its own version: what a newer version added never reaches an older
// client.
//
// The frames from the server to a client are one stream: TCP delivers
// them all, in order. So a State that changes nothing may travel as a
// step from the State before it on the same stream (TypeStateStep, see
// StateStream): an idle client receives about 8 bytes a tick. A Decoder
// and an Encoder each keep that memory of their stream; Unmarshal and
// DecodeBody, which see one frame alone, refuse a step with ErrNoBase.
//
// A server that cannot take a newcomer at once (its ticks have no room for
// another join now) puts it in a line instead of refusing it (version 6,
// line.go): a client of version 6 is told the server's rules of admission
// (Admission) in answer to its Hello or Spectate, then, while it waits,
// its place and the estimated wait (Queued), about once a second, until
// its Welcome (or Spectating) or an Error saying why it will not be let
// in (the wait would pass the server's bound, the line is full). A client
// of version 5 or older waits in the same line and is told its place in
// Notices, and a Notice with no text when it is let in. A client in line
// sends nothing; it leaves the line by closing the connection (or Bye).
//
// A player whose connection dropped may start the next one with Resume
// instead of Hello, carrying the Token of its last Welcome; the server
// answers as to a Hello (a Welcome for the same player, with a new Token),
// or with an Error of code ErrCodeResume and closes.
//
// A spectator starts with Spectate instead of Hello; the server answers
// Spectating, or Error and closes. After that the spectator sends Ping and
// Bye; the server sends Overview, Pong, Join, Leave, Error and Bye.
//
// A teacher (protocol version 5) starts with Teach instead of Spectate,
// and the server takes it only from a connection its operator named a
// teacher's, never from the network's word: it watches the room as a
// spectator and sets its network and netcode with Conditions, which the
// server applies to each student's connection both ways and sends to every
// client of version 5 in the room; their players then send Report, and
// the teachers get Class (see TeachSince).
//
// From version 6 a spectator (a teacher too) is also sent the room's
// Ranking, its Rank 0, whenever a player is, and when it comes; and a
// room's teacher may follow one student with Follow, which the server
// tells every client of version 6 in the room: the student it names
// sends Sight (where it draws its avatar, its ghost, its pending inputs,
// its switches) while it is followed, and the room's spectators and
// teachers of version 6 get each as a Followed (see FollowSince).
//
// From version 6 a teacher may run a blind perception test in its room
// (perceive.go): Perceive starts or stops a run; each round the server
// injects a round trip of its choosing on each student's connection, both
// ways, and tells each student of version 6 the round and its phase but
// not the round trip (Trial), the student answers (Answer), and the
// room's teachers and spectators of version 6 are told the run's progress
// and, at its end, every answer (Perception). The student's own round
// trips come in the Trial that ends the run (see PerceiveSince).
//
// From version 6 a teacher may also crowd its room with the server's
// own bots (crowd.go): Crowd asks for a number of bots and the areas of
// interest on or off, Crowded tells the room's teachers what the server
// gave and which cap stopped it, and Counters, once a second, what the
// server's own counters (its /metrics) say (see CrowdSince).
//
// A Hello or a Spectate may name a room in an optional last field, absent
// for the server's default room, so that the bytes of one naming none are
// those of before rooms. A connection may instead start with ListRooms;
// the server answers Rooms, the list of its rooms (as many as fit a
// frame, with how many are open to a client of version 4 when they do not
// all fit), and the connection may then say Hello or Spectate. A Resume names no room: its token belongs to
// the room that issued it.
//
// Decoding never panics: bad bytes give an error. Encoding is canonical, so
// decoding a frame and encoding the result gives the same bytes back. The
// package works on io.Reader and io.Writer and knows nothing of sockets.
package protocol
