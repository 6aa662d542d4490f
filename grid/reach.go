package grid

// Reach is how a map's floor cells connect: two floor cells are joined
// when a walk of steps between neighbouring floor cells (up, down, left,
// right) leads from one to the other. The largest set of joined cells is
// the map's main floor: a player placed there can reach every cell of it,
// and no cell outside it. A map's Reach is computed by Map.Reach; whoever
// needs it often keeps it (the server's world.MapShare does, for every
// room on the map).
type Reach struct {
	w       int
	main    []uint64 // one bit a cell, set for the main floor's cells
	floor   int      // floor cells in all
	mainLen int      // floor cells of the main floor
}

// Reach returns how m's floor cells connect, computed at each call in time
// and memory proportional to the map's cells (tens of milliseconds for
// 1024x1024): keep it.
func (m *Map) Reach() *Reach { return computeReach(m) }

// computeReach labels the floor's connected sets with a breadth-first
// walk from each floor cell not yet labelled, in row-major order, and
// keeps the largest (the first found among equals).
func computeReach(m *Map) *Reach {
	n := m.w * m.h
	label := make([]int32, n) // 0: a wall or not yet reached; else the set's number
	var queue []int32
	r := &Reach{w: m.w, main: make([]uint64, (n+63)/64)}
	mainLabel := int32(0)
	next := int32(0)
	for start := range n {
		if m.cells[start] != FloorCell || label[start] != 0 {
			continue
		}
		next++
		label[start] = next
		queue = append(queue[:0], int32(start))
		for i := 0; i < len(queue); i++ {
			c := int(queue[i])
			x, y := c%m.w, c/m.w
			for _, nb := range [4]struct {
				ok bool
				at int
			}{{x > 0, c - 1}, {x < m.w-1, c + 1}, {y > 0, c - m.w}, {y < m.h-1, c + m.w}} {
				if nb.ok && m.cells[nb.at] == FloorCell && label[nb.at] == 0 {
					label[nb.at] = next
					queue = append(queue, int32(nb.at))
				}
			}
		}
		r.floor += len(queue)
		if len(queue) > r.mainLen {
			r.mainLen, mainLabel = len(queue), next
		}
	}
	for c, l := range label {
		if l == mainLabel && l != 0 {
			r.main[c/64] |= 1 << (c % 64)
		}
	}
	return r
}

// Main reports whether p is a cell of the main floor, the largest set of
// floor cells joined by walks.
func (r *Reach) Main(p Pos) bool {
	if p.X < 0 || p.Y < 0 || p.X >= r.w {
		return false
	}
	c := p.Y*r.w + p.X
	return c/64 < len(r.main) && r.main[c/64]&(1<<(c%64)) != 0
}

// Floor returns the map's floor cells, all of them.
func (r *Reach) Floor() int { return r.floor }

// MainSize returns the cells of the main floor.
func (r *Reach) MainSize() int { return r.mainLen }

// Unreachable returns the floor cells outside the main floor: no player
// on the main floor can ever walk to them.
func (r *Reach) Unreachable() int { return r.floor - r.mainLen }
