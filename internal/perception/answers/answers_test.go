package answers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gridlag/internal/perception"
)

// TestAppendMakesThenAdds: the first run makes a file named after the
// room (its odd characters _) and the time, with the header; the next
// adds its rows alone; a second file of the same second gets -2.
func TestAppendMakesThenAdds(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "perception")
	now := time.Date(2026, 11, 29, 10, 15, 0, 0, time.UTC)
	trial := []perception.Trial{{Run: 1, Round: 1, Player: 1, Name: "ada", Predict: true, RTTMS: 150, Answer: perception.Laggy, MeasuredMS: 152}}
	path, err := Append(dir, "3b/x", "", trial, now)
	if err != nil || filepath.Base(path) != "perception-3b_x-20261129-101500.csv" {
		t.Fatalf("Append: %q, %v", path, err)
	}
	trial[0].Run = 2
	if again, err := Append(dir, "3b/x", path, trial, now); err != nil || again != path {
		t.Fatalf("Append to %s: %q, %v", path, again, err)
	}
	data, _ := os.ReadFile(path)
	if want := "run,round,player,name,prediction,rtt_ms,answer,measured_rtt_ms\n1,1,1,ada,on,150,laggy,152\n2,1,1,ada,on,150,laggy,152\n"; string(data) != want {
		t.Errorf("the file:\n%s\nwant:\n%s", data, want)
	}
	other, err := Append(dir, "3b/x", "", trial, now)
	if err != nil || !strings.HasSuffix(other, "-101500-2.csv") {
		t.Errorf("a second file of the same second: %q, %v", other, err)
	}
}
