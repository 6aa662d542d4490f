package tcp_test

import (
	"context"
	"testing"

	"gridlag/client"
	"gridlag/client/tcp"
)

// A player who names a room is in it: a lobby lists it with them, and a
// player of the default room is not in their world.
func TestRoomJoinedAndListed(t *testing.T) {
	addr := startServer(t, 50)
	ctx := context.Background()
	ada, err := tcp.Dial(ctx, addr, tcp.Options{Options: client.Options{Name: "ada", Room: "kitchen"}})
	if err != nil {
		t.Fatal(err)
	}
	defer ada.Close()
	bob, err := tcp.Dial(ctx, addr, tcp.Options{Options: client.Options{Name: "bob"}})
	if err != nil {
		t.Fatal(err)
	}
	defer bob.Close()
	list, err := tcp.ListRooms(ctx, addr)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Rooms) != 2 || list.Rooms[0].Name != "" || list.Rooms[0].Players != 1 || list.Rooms[1].Name != "kitchen" || list.Rooms[1].Players != 1 {
		t.Fatalf("rooms %+v, want the default room with bob and kitchen with ada", list.Rooms)
	}
	if v := ada.View(); v.Me != bob.View().Me {
		t.Errorf("ada is player %d, bob %d: each is the first of their own room", v.Me, bob.View().Me)
	}
	if others := ada.View().Others; len(others) != 0 {
		t.Errorf("ada in kitchen sees %+v", others)
	}
}
