// Package wire counts what a player's connection really carries, layer
// by layer, so that a screen can show what one move costs the wire: the
// game's own bytes (protocol frames), the terminal's (keys in, escape
// sequences out, and the cells they draw), the framing of SSH or a
// WebSocket (the bytes on the connection beside the payload they carry),
// and TCP/IP's (the kernel's own counters of the socket: segments, pure
// acknowledgements, bytes; TCP_INFO on Linux).
//
// Nothing here estimates: every figure is a counter of bytes that went
// through a Read or a Write, or the kernel's. Header bytes are the
// kernel's segment counts times the header each segment of that socket
// carries (IPv4 or IPv6, and TCP's options: timestamps on Linux by
// default), which the kernel reports too.
//
// A Meter gathers one session's counters; its Snapshot is what a view
// subtracts from a later one (Snapshot.Sub) to show a window of play.
// Up is toward the server (the player's keys), down toward the player.
package wire
