package world

import (
	"reflect"
	"testing"
)

// A hub's totals count every counter of every room: a field added to
// Stats and forgotten in Add would read 0 on a server with rooms.
func TestStatsAddCoversEveryField(t *testing.T) {
	var one, sum Stats
	v := reflect.ValueOf(&one).Elem()
	for i := range v.NumField() {
		if f := v.Field(i); f.CanInt() {
			f.SetInt(1)
		} else {
			f.SetUint(1)
		}
	}
	sum.Add(one)
	sum.Add(one)
	w := reflect.ValueOf(sum)
	for i := range w.NumField() {
		if f := w.Field(i); f.CanInt() && f.Int() != 2 || f.CanUint() && f.Uint() != 2 {
			t.Errorf("Stats.Add leaves out %s", w.Type().Field(i).Name)
		}
	}
}
