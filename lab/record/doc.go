// Package record is gridlag's recording file: what `gridlag scenario
// -record`, `gridlag lab -record` and `gridlag -record` (and an SSH
// player's `record` session) write, and what `gridlag replay` reads. It
// knows the file's bytes and nothing of how a recording is played back
// (package replay does that).
//
// A recording holds everything needed to run the same moments again on
// gridlag's deterministic cores: one header with the settings, the seeds
// of every random source and the map, then the events, each at its time.
//
// # The file, version 2
//
// All integers are unsigned LEB128 varints ("uvarint") unless said;
// "varint" is the zig-zag signed form of encoding/binary.
//
//	magic    8 bytes: 0x89 'G' 'L' 'R' '\r' '\n' 0x1a '\n'
//	version  uvarint: 2 (1: the same without flush marks, still read)
//	header   uvarint length, then that many bytes of JSON (Header)
//	events   zero or more, each:
//	           kind    1 byte, 1 to 255 (see Kind)
//	           dt      uvarint: nanoseconds since the previous event
//	                   (the first: since the recording's time 0)
//	           who     1 byte: the player (0 Player 1 or the game's
//	                   player, 1 Player 2, 255 the lab or server)
//	           arg     varint: the kind's number (a direction, a
//	                   switch, a duration in ns, a rate, a loss's
//	                   float64 bits)
//	           data    uvarint length, then that many bytes: a frame
//	                   read or written, an error's text, a check
//	mark     between events, at each flush (from version 2): kind 254,
//	         dt 0, who 255, arg = the number of events before it, data
//	         the CRC-32 (IEEE) of every byte before it, 4 bytes
//	         big-endian; not an event
//	end      kind 0, dt (to the recording's end), who = why it ended
//	         (Stop), arg = the number of events, no data; then the
//	         CRC-32 (IEEE) of every byte before it, 4 bytes big-endian.
//
// The magic's first byte is not ASCII and it holds CR LF and LF, so a
// transfer that mangles text or line ends is caught at once. A reader
// reads the file as a stream (bounded: see Read), checking each part as
// it comes, and refuses it if it is empty, is not a recording, is of a
// newer version than this package reads (Version), ends within its
// header (truncated), or breaks any rule above or fails its checksum
// (damaged): an event out of its
// range or not of its kind of recording is refused at once, with its
// number and the byte it starts at, nothing after it read. Each refusal
// is one line (see Error). A Recording keeps its events' bytes as the
// file has them and decodes each as it is walked (Cursor): it holds the
// file's size, not a struct per event.
//
// A file that ends after its header but before its end mark (a process
// killed mid-recording, a copy cut short) is read up to its last whole
// event: the Recording's Stop is StopCut and its Cut says where. A
// Writer flushes after the header, after every Check and at least every
// FlushEvery (1 s) of the recording's time, so that a kill -9 loses at
// most that last second.
//
// A writer is bounded too (Writer.Max): an event that would take the
// file past its size is not written; the recording ends there, with the
// end mark saying so (StopFull), and replays up to that moment.
//
// The header is JSON (Header): "kind" ("scenario", "lab" or "game"),
// "gridlag" (the version that wrote it), "created", "map" (the map's
// rows, '#' wall, '.' floor; a game's map travels in its Welcome
// instead) and the settings of its kind: "scenario" (the players'
// starts and links, the seed, the server's numbers, the client's
// toggles), "lab" (the same for the lab's two players, with their
// scripts), or "game" (the client's name, room, server, injected link
// and its seed, toggles). Durations are Go's ("250ms").
//
// The events of a scenario are the players' presses and zaps. Those of a
// lab are every live action, each at the lab's time: a player's presses
// and zaps, toggles, latency, jitter and preset changes (a preset sets
// the loss), lag spikes; the lab's (by Nobody) server rate and lag
// compensation, pause, resume, speed and step; a Sync
// event brings the lab's world to its time before the action that
// follows, so that a replay calls the world exactly as the live lab
// did. Those of a game are every call the player's client driver took
// (client.Call): the bytes read from the socket with their arrival
// times (any frame of any protocol version: the bytes are kept as they
// came), the driver's steps, the keys and toggles, the frames written,
// and after each State a check of the view (Check), which a replay
// compares, all by Player 1. An event of another kind (or player) than
// its recording's holds is refused. No recording holds a Loss event.
package record
