// Package web is gridlag's browser front end: an HTTP server whose page
// (xterm.js, built into dist/ and embedded in the binary) opens one
// WebSocket per player, each a game session run by package remote, behind
// the same door (package admit) as the game port and SSH.
package web
