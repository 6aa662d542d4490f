// Package bot runs headless gridlag players ("bots") on the real client.
//
// A Brain decides, from a client.View, which direction to press next: a
// random walk that keeps a heading for a few steps before turning, prefers
// open cells and never steps onto the cells it is told to avoid (the human
// spawn cell by default, so that a newcomer can always spawn there); the
// bots Run and Start play keep SpawnZone cells away from them
// (Brain.KeepAway). It is pure and deterministic for a seed. A Trigger
// zaps whoever the View shows in the bot's line, a human-like reaction
// time after they came into it; the bot stands still while it aims. It
// never aims at a player under spawn protection or frozen, nor at one near
// a human spawn (Trigger.Spare): no bot waits for a newcomer.
//
// A Bot is one player's schedule with a Brain, free of I/O and of any clock:
// its runner asks it what to press and when to look again, then stops it
// and lets it wait for its acknowledgements. It plays through a Client (a
// client.Session that reports its totals), so bots run on the wall clock
// over TCP or inside a simulated world on a virtual clock.
//
// Run connects bots to a server over TCP with tcp.Dial, lets them walk at
// the speed limit through an injected latency, and returns a Summary of what
// the clients measured: inputs sent and acknowledged, corrections, zaps
// sent, tags made and suffered, round trips and bytes. Start runs bots in the background of another process (the
// embedded game, a server with house bots) until it is stopped.
package bot
