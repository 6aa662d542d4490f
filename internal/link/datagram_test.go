package link

import (
	"slices"
	"testing"
	"time"
)

// TestDatagramReordersAndLoses: datagrams take delay plus their own
// jitter, so a later one may arrive first; a lost one never arrives and
// holds nothing back; the same seed gives the same fates.
func TestDatagramReordersAndLoses(t *testing.T) {
	d := NewDatagram[int](50*ms, 100*ms, 7)
	d.SetLoss(0.2)
	type fate struct {
		at   time.Duration
		lost bool
	}
	var fates []fate
	for i := range 200 {
		at, lost := d.Send(time.Duration(i)*10*ms, i)
		if at < time.Duration(i)*10*ms+50*ms || at > time.Duration(i)*10*ms+150*ms {
			t.Fatalf("datagram %d arrives at %v", i, at)
		}
		fates = append(fates, fate{at, lost})
	}
	again := NewDatagram[int](50*ms, 100*ms, 7)
	again.SetLoss(0.2)
	for i := range 200 {
		if at, lost := again.Send(time.Duration(i)*10*ms, i); (fate{at, lost}) != fates[i] {
			t.Fatal("the same seed gave another fate")
		}
	}
	got := d.Receive(time.Hour, nil)
	lost, reordered := 0, false
	for i, f := range fates {
		if f.lost {
			lost++
			if slices.Contains(got, i) {
				t.Fatalf("lost datagram %d arrived", i)
			}
		}
	}
	for i := 1; i < len(got); i++ {
		if got[i] < got[i-1] {
			reordered = true
		}
	}
	if lost < 20 || lost > 60 || !reordered || len(got)+lost != 200 || d.Len() != 0 {
		t.Fatalf("lost %d of 200 at 20%%, reordered %v, delivered %d", lost, reordered, len(got))
	}
}

// TestDatagramNothingWaits: a lost datagram holds nothing back: the one
// sent after it arrives on its own delay.
func TestDatagramNothingWaits(t *testing.T) {
	d := NewDatagram[int](100*ms, 0, 1)
	d.SetLoss(1)
	d.Send(0, 1)
	d.SetLoss(0)
	if at, lost := d.Send(10*ms, 2); at != 110*ms || lost {
		t.Fatalf("sent after a lost one: at %v lost %v", at, lost)
	}
	if got := d.Receive(110*ms, nil); !slices.Equal(got, []int{2}) {
		t.Fatalf("at 110ms got %v", got)
	}
	d.Stall(200*ms, 300*ms)
	if at, _ := d.Send(250*ms, 3); at != 500*ms {
		t.Fatalf("sent in a stall, arrives at %v", at)
	}
}
