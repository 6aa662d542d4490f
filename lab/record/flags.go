package record

import "gridlag/internal/cli"

// SizeRange is the kind of the flags that bound a recording's size
// (-record-max, -max-size, -ssh-record-max).
var SizeRange = cli.SizeRange{Lo: 4 << 10, Hi: 4 << 30}

// File is where a command records, as its flags say: -record FILE and
// -record-max SIZE.
type File struct {
	Path string
	Max  int64
}

// RegisterFlags registers -record and -record-max; what says what is
// recorded ("the lab (its settings...)").
func (f *File) RegisterFlags(fs *cli.FlagSet, what string) {
	fs.StringVar(&f.Path, "record", "", "record "+what+" into `FILE`, for gridlag replay")
	fs.Size(&f.Max, "record-max", DefaultMax, SizeRange, "the largest recording: recording stops there, saying so, and what was recorded replays")
}
