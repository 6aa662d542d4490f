// Package sim runs gridlag's real server (the hub.Hub the TCP server
// runs, with its rooms and their worlds, its ticks, pings and timers) and
// real client drivers (client.Driver, the code a TCP player runs) over
// simulated links on a virtual clock. Every message is encoded to its
// wire frame and decoded again, as over TCP; only the sockets and the wall
// clock are replaced. Same inputs, same seed: same timeline, to the
// nanosecond. A client names its room as a TCP client does
// (client.Options.Room); Cut and Reconnect break its connection and bring
// it back with its resume token.
//
// A World can also be stepped one moment at a time (Next, Step) and its
// update rate changed live; each Client's link can be given loss, a preset
// or a stall, and lists what is in flight, decoded (Client.InFlight): what
// the lab shows.
//
// The server and the clients share the world's clock: a client reads the
// server's stages of its inputs as they are (client.Options.SharedClock),
// so an input's life (the Lived event) is on that one clock.
//
// A World also runs spectators' drivers (Watch), among them teachers
// (client.Options.Teach over a connection the hub takes for a teacher's),
// who set the network of their room: the hub holds what goes either way on
// each student's connection, so an event of the server's side (a
// ServerInput) is when the hub got the message, and its room's world
// takes it when it arrives.
//
// A World reports what happens as Events that carry the facts; package
// scenario puts them into words for its timelines. The tests replay the
// articles' examples with it, and interfaces and bots are tested against
// its clients, which implement client.Session.
package sim
