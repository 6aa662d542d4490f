package replay

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"gridlag/grid"
	"gridlag/lab/scenario"
	"gridlag/lab/sim"
)

// svgText is a text of a drawn SVG: its lines' boxes as textWidth
// estimates them.
type svgText struct {
	lines []string
	boxes [][4]float64 // x0, y0, x1, y1
}

// svgArrow is a message's arrow and its label.
type svgArrow struct {
	line  [4]float64
	label svgText
}

// readSVG parses what WriteSVG drew: every text, and each message's
// arrow with its label.
func readSVG(t *testing.T, b []byte) (texts []svgText, arrows []svgArrow) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(b))
	attr := func(e xml.StartElement, name string) string {
		for _, a := range e.Attr {
			if a.Name.Local == name {
				return a.Value
			}
		}
		return ""
	}
	num := func(e xml.StartElement, name string) float64 {
		f, _ := strconv.ParseFloat(attr(e, name), 64)
		return f
	}
	var inMsg bool
	var line [4]float64
	var cur *svgText
	var x, y, size float64
	var anchor string
	var bold bool
	add := func(s string) {
		if strings.TrimSpace(s) == "" {
			return
		}
		w := textWidth(s, size, bold)
		x0 := x
		switch anchor {
		case "middle":
			x0 -= w / 2
		case "end":
			x0 -= w
		}
		cur.lines = append(cur.lines, s)
		cur.boxes = append(cur.boxes, [4]float64{x0, y - 0.8*size, x0 + w, y + 0.25*size})
	}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "g":
				inMsg = strings.HasPrefix(attr(e, "class"), "msg")
			case "line":
				line = [4]float64{num(e, "x1"), num(e, "y1"), num(e, "x2"), num(e, "y2")}
			case "text":
				cur = &svgText{}
				x, y, anchor = num(e, "x"), num(e, "y"), attr(e, "text-anchor")
				class := attr(e, "class")
				size, bold = svgFont, strings.Contains(class, "corr")
				switch {
				case strings.Contains(class, "head"):
					size, bold = svgHead, true
				case strings.Contains(class, "srv"), strings.Contains(class, "note"):
					size = svgSrvFont
				}
			case "tspan":
				x, y = num(e, "x"), y+num(e, "dy")
			}
		case xml.CharData:
			if cur != nil {
				add(string(e))
			}
		case xml.EndElement:
			switch e.Name.Local {
			case "text":
				texts = append(texts, *cur)
				if inMsg {
					arrows = append(arrows, svgArrow{line, *cur})
				}
				cur = nil
			case "g":
				inMsg = false
			}
		}
	}
	return texts, arrows
}

// hits reports whether the segment s crosses or touches the box b.
func hits(s [4]float64, b [4]float64) bool {
	// Sample the segment finely: a box is at least a few units wide.
	for i := 0; i <= 1000; i++ {
		f := float64(i) / 1000
		px, py := s[0]+(s[2]-s[0])*f, s[1]+(s[3]-s[1])*f
		if px >= b[0] && px <= b[2] && py >= b[1] && py <= b[3] {
			return true
		}
	}
	return false
}

// svgCases are the bundled cases of the docs (docs/lab.md,
// docs/recordings.md, the lessons' Parts): their scenario's settings.
func svgCases() map[string]scenario.Config {
	cases := map[string]scenario.Config{}
	art := scenario.Default()
	cases["the article's"] = art
	noRec := art
	noRec.Reconcile = false
	cases["-reconcile=false"] = noRec
	cases["Part IV"] = partFour(true)
	cases["Part IV, lag compensation off"] = partFour(false)
	for _, c := range []struct {
		name string
		loss float64
		seed int64
		link sim.Transport
	}{{"-loss 50% -seed 2", 0.5, 2, sim.TCP}, {"-loss 0.9 -seed 3", 0.9, 3, sim.TCP}, {"-link datagram -loss 20% -seed 3", 0.2, 3, sim.Datagram}} {
		cfg := scenario.Default()
		cfg.Player.Loss, cfg.Seed, cfg.Link = c.loss, c.seed, c.link
		cases[c.name] = cfg
	}
	col := scenario.Default()
	col.Player.Presses = []scenario.Press{{At: 0, Dir: grid.Right}}
	col.Second = &scenario.Player{Start: grid.Pos{X: 12, Y: 10}, Latency: 20 * time.Millisecond, Presses: []scenario.Press{{At: 0, Dir: grid.Left}}}
	cases["a collision"] = col
	return cases
}

// TestSVGLabelsWholeAndBesideTheirArrows: in every bundled case's
// diagram, no label is cut ("…"), every text stays on the page, and no
// message's label touches its own arrow.
func TestSVGLabelsWholeAndBesideTheirArrows(t *testing.T) {
	for name, cfg := range svgCases() {
		t.Run(name, func(t *testing.T) {
			res, err := scenario.RunFull(cfg)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			title := "gridlag scenario -latency 200ms -start2 12,10 -presses2 down@0ms -presses zap@150ms -latency2 150ms -svg p4.svg (" + name + ")"
			if err := WriteSVG(&b, res, title); err != nil {
				t.Fatal(err)
			}
			texts, arrows := readSVG(t, b.Bytes())
			if len(arrows) == 0 {
				t.Fatal("no arrow drawn")
			}
			for _, tx := range texts {
				for i, l := range tx.lines {
					box := tx.boxes[i]
					if strings.Contains(l, "…") {
						t.Errorf("a label is cut: %q", l)
					}
					if box[0] < 0 || box[2] > svgWidth {
						t.Errorf("%q runs off the page: x from %.0f to %.0f of %d", l, box[0], box[2], svgWidth)
					}
				}
			}
			for k, a := range arrows {
				for i, l := range a.label.lines {
					if hits(a.line, a.label.boxes[i]) {
						t.Errorf("the label %q overlaps its arrow %v (box %v)", l, a.line, a.label.boxes[i])
					}
					for _, o := range arrows[:k] {
						if b, q := a.label.boxes[i], o.label.boxes[0]; b[0] < q[2] && q[0] < b[2] && b[1] < q[3] && q[1] < b[3] {
							t.Errorf("the label %q overlaps the label %q", l, o.label.lines[0])
						}
					}
				}
			}
		})
	}
}

// TestPartFourSVGSaysTheVerdict: the Part IV diagram holds the server's
// verdict and its rewind in full, the run's own numbers, and the
// tagged player's freeze; with reconciliation off, the jump is marked.
func TestPartFourSVGSaysTheVerdict(t *testing.T) {
	res, err := scenario.RunFull(partFour(true))
	if err != nil {
		t.Fatal(err)
	}
	var z *scenario.ZapLine
	for _, l := range res.Lines {
		if l.Zap != nil {
			z = l.Zap
		}
	}
	var b bytes.Buffer
	if err := WriteSVG(&b, res, "Part IV"); err != nil {
		t.Fatal(err)
	}
	texts, _ := readSVG(t, b.Bytes())
	var all []string
	for _, tx := range texts {
		all = append(all, strings.Join(tx.lines, " "))
	}
	text := strings.Join(all, "\n")
	for _, want := range []string{fmt.Sprintf("hits %s at (12,10), rewound %dms", *z.Target, z.RewindMS), "tagged by you, frozen"} {
		if !strings.Contains(text, want) {
			t.Errorf("the diagram lacks %q:\n%s", want, text)
		}
	}

	cfg := scenario.Default()
	cfg.Reconcile = false
	if res, err = scenario.RunFull(cfg); err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := WriteSVG(&b, res, "reconciliation off"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "jumps from (12,10)") || !strings.Contains(b.String(), `class="jump"`) {
		t.Errorf("the jump back at 250 ms is not marked:\n%s", b.String())
	}
	if _, err := exec.LookPath("rsvg-convert"); err != nil {
		t.Log("rsvg-convert is not installed: not rendered")
		return
	}
	svg := filepath.Join(t.TempDir(), "a.svg")
	if err := os.WriteFile(svg, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("rsvg-convert", svg, "-o", svg+".png").CombinedOutput(); err != nil {
		t.Fatalf("rsvg-convert: %v\n%s", err, out)
	}
}
