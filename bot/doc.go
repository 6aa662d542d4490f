// Package bot runs headless gridlag players ("bots") on the real client.
//
// A Brain decides, from a client.View, which direction to press next: a
// random walk that keeps a heading for a few steps before turning, prefers
// open cells and never steps onto the cells it is told to avoid (the human
// spawn cell by default, so that a newcomer can always spawn there). It is
// pure and deterministic for a seed.
//
// Run connects bots to a server over TCP with client.Dial, lets them walk at
// the speed limit through an injected latency, and returns a Summary of what
// the clients measured: inputs sent and acknowledged, corrections, round
// trips and bytes. Start runs bots in the background of another process (the
// embedded game, a server with house bots) until it is stopped.
package bot
