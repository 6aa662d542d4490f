package grid

import (
	"cmp"
	"fmt"
	"math/rand"
	"slices"
)

// MinGenSide is the smallest width or height Generate makes a map of: a
// border of walls around room for one small room.
const MinGenSide = 8

// Room sizes and spacing of generated maps, in cells.
const (
	genRoomMin = 4  // smallest side of a room
	genRoomMax = 18 // largest side of a room
	genRoomGap = 2  // walls kept between two rooms, at least
)

// room is a rectangle of floor of a generated map: x, y is its top-left
// cell.
type room struct{ x, y, w, h int }

// centre is the room's middle cell.
func (r room) centre() Pos { return Pos{r.x + r.w/2, r.y + r.h/2} }

// Generate returns a w x h map of rooms joined by corridors, walled in by a
// border, for a server to host many players without a hand-drawn map. It is
// playable: every floor cell can be reached from every other. The same size
// and seed always give the same map (Generate uses its own random source,
// seeded with seed). Sides are MinGenSide to MaxMapSide.
func Generate(w, h int, seed int64) (*Map, error) {
	if w < MinGenSide || h < MinGenSide || w > MaxMapSide || h > MaxMapSide {
		return nil, fmt.Errorf("grid: cannot generate a %dx%d map: each side must be %d to %d", w, h, MinGenSide, MaxMapSide)
	}
	m := &Map{w: w, h: h, cells: make([]byte, w*h)}
	for i := range m.cells {
		m.cells[i] = WallCell
	}
	rng := rand.New(rand.NewSource(seed))
	rooms := m.placeRooms(rng)
	for i := 1; i < len(rooms); i++ {
		// Each room joins the one before it, so all are joined.
		m.carveCorridor(rng, rooms[i-1].centre(), rooms[i].centre())
	}
	// A few more corridors make loops, so that crowds have ways round.
	for range len(rooms) / 4 {
		a, b := rooms[rng.Intn(len(rooms))], rooms[rng.Intn(len(rooms))]
		m.carveCorridor(rng, a.centre(), b.centre())
	}
	return m, nil
}

// placeRooms carves rooms at random inside the border of the all-wall map
// m, never closer than genRoomGap to each other, and returns them in the
// order they are to be joined: each one near the one before, so corridors
// stay short. There is always at least one room.
func (m *Map) placeRooms(rng *rand.Rand) []room {
	maxW, maxH := min(genRoomMax, m.w-2), min(genRoomMax, m.h-2)
	var rooms []room
	for range m.w * m.h / 16 {
		r := room{w: genRoomMin + rng.Intn(maxW-genRoomMin+1), h: genRoomMin + rng.Intn(maxH-genRoomMin+1)}
		r.x = 1 + rng.Intn(m.w-1-r.w)
		r.y = 1 + rng.Intn(m.h-1-r.h)
		if m.solid(r.x-genRoomGap, r.y-genRoomGap, r.w+2*genRoomGap, r.h+2*genRoomGap) {
			m.carveRoom(r)
			rooms = append(rooms, r)
		}
	}
	if len(rooms) == 0 {
		r := room{x: 1, y: 1, w: m.w - 2, h: m.h - 2}
		m.carveRoom(r)
		return []room{r}
	}
	return sweepOrder(rooms)
}

// solid reports whether the w x h rectangle at x, y has no floor (cells
// outside the map count as walls).
func (m *Map) solid(x, y, w, h int) bool {
	for cy := max(y, 0); cy < min(y+h, m.h); cy++ {
		for cx := max(x, 0); cx < min(x+w, m.w); cx++ {
			if m.cells[cy*m.w+cx] == FloorCell {
				return false
			}
		}
	}
	return true
}

// sweepOrder sorts rooms in bands of rows, left to right then right to
// left, so that rooms next to each other in the order are near each other.
func sweepOrder(rooms []room) []room {
	key := func(r room) (band, x int) {
		c := r.centre()
		band = c.Y / (2 * genRoomMax)
		if band%2 == 1 {
			return band, -c.X
		}
		return band, c.X
	}
	slices.SortStableFunc(rooms, func(a, b room) int {
		ba, xa := key(a)
		bb, xb := key(b)
		return cmp.Or(cmp.Compare(ba, bb), cmp.Compare(xa, xb))
	})
	return rooms
}

// carveRoom makes r's cells floor.
func (m *Map) carveRoom(r room) {
	for y := r.y; y < r.y+r.h; y++ {
		for x := r.x; x < r.x+r.w; x++ {
			m.cells[y*m.w+x] = FloorCell
		}
	}
}

// carveCorridor makes floor of an L-shaped walk from a to b, horizontal
// or vertical first at random.
func (m *Map) carveCorridor(rng *rand.Rand, a, b Pos) {
	corner := Pos{b.X, a.Y}
	if rng.Intn(2) == 0 {
		corner = Pos{a.X, b.Y}
	}
	m.carveLine(a, corner)
	m.carveLine(corner, b)
}

// carveLine makes floor of the straight line from a to b (a and b share a
// row or a column).
func (m *Map) carveLine(a, b Pos) {
	for x := min(a.X, b.X); x <= max(a.X, b.X); x++ {
		for y := min(a.Y, b.Y); y <= max(a.Y, b.Y); y++ {
			m.cells[y*m.w+x] = FloorCell
		}
	}
}
