package grid

// Path returns a shortest walk from from to to over floor cells, one step
// to a 4-neighbour at a time, both ends included ([from] when they are the
// same cell). Other players are not obstacles. ok is false when either end
// is a wall, when every walk is longer than maxSteps steps, or when the
// search would look at more than maxCells cells: the bounds keep the
// search cheap, and a move that could not have been walked within them (a
// respawn, a teleport) has no path.
//
// Among the shortest walks Path takes the one that keeps closest to the
// straight line from from to to, so an open diagonal is walked as a
// staircase rather than along one edge and then the other. The result is
// deterministic.
func (m *Map) Path(from, to Pos, maxSteps, maxCells int) (path []Pos, ok bool) {
	if m.Wall(from) || m.Wall(to) || distance(from, to) > maxSteps {
		return nil, false
	}
	dist, ok := m.stepsTo(to, from, maxSteps, maxCells)
	if !ok {
		return nil, false
	}
	path = make([]Pos, 0, dist[from]+1)
	path = append(path, from)
	for p := from; p != to; {
		p = nearestLine(p, from, to, dist)
		path = append(path, p)
	}
	return path, true
}

// directions are the four steps, in the order searches try them.
var directions = [...]Dir{Up, Down, Left, Right}

// stepsTo searches breadth-first from to until it reaches from, and returns
// every cell it reached with its number of steps to to. A cell that cannot
// lie on a walk of at most maxSteps steps (its steps plus its Manhattan
// distance to from are more) is not searched further. ok is false when from
// was not reached, or when more than maxCells cells were reached first.
func (m *Map) stepsTo(to, from Pos, maxSteps, maxCells int) (dist map[Pos]int, ok bool) {
	dist = map[Pos]int{to: 0}
	queue := []Pos{to}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if p == from {
			return dist, true
		}
		for _, d := range directions {
			n := p.Add(d)
			if _, seen := dist[n]; seen || m.Wall(n) || dist[p]+1+distance(n, from) > maxSteps {
				continue
			}
			if len(dist) == maxCells {
				return nil, false
			}
			dist[n] = dist[p] + 1
			queue = append(queue, n)
		}
	}
	return nil, false
}

// nearestLine returns the neighbour of p one step closer to the end of the
// search that dist describes, choosing the one nearest the straight line
// from a to b.
func nearestLine(p, a, b Pos, dist map[Pos]int) Pos {
	best, bestOff := p, -1
	for _, d := range directions {
		n := p.Add(d)
		if k, ok := dist[n]; !ok || k != dist[p]-1 {
			continue
		}
		if off := offLine(n, a, b); bestOff < 0 || off < bestOff {
			best, bestOff = n, off
		}
	}
	return best
}

// offLine measures how far p is from the straight line through a and b:
// the area of the parallelogram they make, which grows with the distance.
func offLine(p, a, b Pos) int {
	return abs((p.X-a.X)*(b.Y-a.Y) - (p.Y-a.Y)*(b.X-a.X))
}

// distance is the Manhattan distance between a and b: the fewest steps
// from one to the other on an open floor.
func distance(a, b Pos) int {
	return abs(a.X-b.X) + abs(a.Y-b.Y)
}
