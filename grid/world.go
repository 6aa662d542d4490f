package grid

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"sort"
)

// PlayerID identifies a player in a world. Zero is never a valid ID.
type PlayerID uint16

// Rules are the tunable numbers of the game's rules.
type Rules struct {
	// MoveTime is the time one move takes: a player moves at most one cell
	// per MoveTime on average.
	MoveTime int64
	// Burst is how many moves may arrive back to back before the speed
	// limit rejects one. It absorbs network jitter.
	Burst int
}

// Outcome says what an attempted move did.
type Outcome uint8

// The outcomes of a move.
const (
	Moved         Outcome = iota // the player moved one cell
	BlockedWall                  // a wall is in the way
	BlockedEdge                  // the map ends there
	BlockedPlayer                // another player stands there
	TooFast                      // over the speed limit: nothing moves
	NoPlayer                     // no such player in the world
	BadDir                       // the direction is not a move
)

// String names the outcome in a few words.
func (o Outcome) String() string {
	switch o {
	case Moved:
		return "moved"
	case BlockedWall:
		return "blocked by a wall"
	case BlockedEdge:
		return "blocked by the map's edge"
	case BlockedPlayer:
		return "blocked by another player"
	case TooFast:
		return "over the speed limit"
	case NoPlayer:
		return "no such player"
	case BadDir:
		return "not a direction"
	}
	return fmt.Sprintf("Outcome(%d)", uint8(o))
}

// PlayerPos is a player's ID and cell.
type PlayerPos struct {
	ID  PlayerID
	Pos Pos
}

type player struct {
	pos    Pos
	limit  Limiter
	facing Dir
}

// World is the state of a game: a map and the players on it. It is not safe
// for concurrent use; one owner applies every change.
type World struct {
	m       *Map
	rules   Rules
	players map[PlayerID]*player
	at      map[Pos]PlayerID
	cells   []PlayerPos // every player's cell, sorted by ID: the order of iteration, and what Players copies
}

// Errors returned by World.Add and World.Place.
var (
	ErrTaken    = errors.New("grid: player ID already in the world")
	ErrOccupied = errors.New("grid: cell is a wall, outside the map or taken")
	ErrNoPlayer = errors.New("grid: no such player in the world")
)

// NewWorld returns an empty world on map m with the given rules.
func NewWorld(m *Map, rules Rules) *World {
	return &World{m: m, rules: rules, players: make(map[PlayerID]*player), at: make(map[Pos]PlayerID)}
}

// Map returns the world's map.
func (w *World) Map() *Map { return w.m }

// Rules returns the world's rules.
func (w *World) Rules() Rules { return w.rules }

// Len returns the number of players.
func (w *World) Len() int { return len(w.cells) }

// index returns where player id is, or would be inserted, in w.cells.
func (w *World) index(id PlayerID) int {
	return sort.Search(len(w.cells), func(i int) bool { return w.cells[i].ID >= id })
}

// Add places player id at p, facing Right. It fails if the ID is in use or p is not a free
// floor cell.
func (w *World) Add(id PlayerID, p Pos) error {
	if _, ok := w.players[id]; ok || id == 0 {
		return ErrTaken
	}
	if !w.Free(p) {
		return ErrOccupied
	}
	w.players[id] = &player{pos: p, facing: Right}
	w.at[p] = id
	w.cells = slices.Insert(w.cells, w.index(id), PlayerPos{ID: id, Pos: p})
	return nil
}

// Remove takes player id out of the world, if present.
func (w *World) Remove(id PlayerID) {
	p, ok := w.players[id]
	if !ok {
		return
	}
	delete(w.at, p.pos)
	delete(w.players, id)
	i := w.index(id)
	w.cells = slices.Delete(w.cells, i, i+1)
}

// Pos returns the cell of player id.
func (w *World) Pos(id PlayerID) (Pos, bool) {
	p, ok := w.players[id]
	if !ok {
		return Pos{}, false
	}
	return p.pos, true
}

// At returns the player standing on p, if any.
func (w *World) At(p Pos) (PlayerID, bool) {
	id, ok := w.at[p]
	return id, ok
}

// Free reports whether p is floor with nobody on it.
func (w *World) Free(p Pos) bool {
	if w.m.Wall(p) {
		return false
	}
	_, taken := w.at[p]
	return !taken
}

// Check says what a move of player id in direction d would do, ignoring the
// speed limit, without changing anything.
func (w *World) Check(id PlayerID, d Dir) Outcome {
	p, ok := w.players[id]
	if !ok {
		return NoPlayer
	}
	if !d.Valid() {
		return BadDir
	}
	to := p.pos.Add(d)
	switch {
	case !w.m.Inside(to):
		return BlockedEdge
	case w.m.Wall(to):
		return BlockedWall
	}
	if _, taken := w.at[to]; taken {
		return BlockedPlayer
	}
	return Moved
}

// Move moves player id one cell in direction d if nothing is in the way,
// ignoring the speed limit. The player faces d, moved or blocked. The
// client uses it to replay inputs the speed limit already admitted.
func (w *World) Move(id PlayerID, d Dir) Outcome {
	o := w.Check(id, d)
	if o == NoPlayer || o == BadDir {
		return o
	}
	w.players[id].facing = d
	if o == Moved {
		w.place(id, w.players[id].pos.Add(d))
	}
	return o
}

// Facing returns the direction player id faces: the last one pressed (a
// move that was blocked or too fast turns the player all the same), Right
// before any.
func (w *World) Facing(id PlayerID) Dir {
	if p, ok := w.players[id]; ok {
		return p.facing
	}
	return None
}

// Place moves player id to the free floor cell to at once, as a respawn
// does. It fails if the player is not in the world or to is not free.
func (w *World) Place(id PlayerID, to Pos) error {
	if _, ok := w.players[id]; !ok {
		return ErrNoPlayer
	}
	if !w.Free(to) {
		return ErrOccupied
	}
	w.place(id, to)
	return nil
}

// Apply is the server's rule for an input of player id at time now: over the
// speed limit nothing moves (TooFast) but the player turns to d; otherwise
// it is Move.
func (w *World) Apply(id PlayerID, d Dir, now int64) Outcome {
	p, ok := w.players[id]
	if !ok {
		return NoPlayer
	}
	if !d.Valid() {
		return BadDir
	}
	if !p.limit.Allow(now, w.rules.MoveTime, w.rules.Burst) {
		p.facing = d
		return TooFast
	}
	return w.Move(id, d)
}

func (w *World) place(id PlayerID, to Pos) {
	pl := w.players[id]
	delete(w.at, pl.pos)
	pl.pos = to
	w.at[to] = id
	w.cells[w.index(id)].Pos = to
}

// Players appends every player's ID and cell to dst, sorted by ID, and
// returns the extended slice. It is one copy: servers call it every tick.
func (w *World) Players(dst []PlayerPos) []PlayerPos {
	return append(dst, w.cells...)
}

// Spawn returns the free floor cell nearest to want (by Manhattan distance,
// then by row, then by column), skipping the cells in avoid. ok is false when
// the map has no free cell.
func (w *World) Spawn(want Pos, avoid ...Pos) (p Pos, ok bool) {
	return w.SpawnWhere(want, func(c Pos) bool {
		for _, a := range avoid {
			if a == c {
				return false
			}
		}
		return true
	})
}

// SpawnWhere returns the free floor cell nearest to want (by Manhattan
// distance, then by row, then by column) that allowed allows. ok is false
// when there is none.
func (w *World) SpawnWhere(want Pos, allowed func(Pos) bool) (p Pos, ok bool) {
	skip := func(c Pos) bool { return !allowed(c) }
	maxR := w.m.w + w.m.h
	for r := 0; r <= maxR; r++ {
		for dy := -r; dy <= r; dy++ {
			rest := r - abs(dy)
			for _, dx := range [2]int{-rest, rest} {
				c := Pos{want.X + dx, want.Y + dy}
				if w.Free(c) && !skip(c) {
					return c, true
				}
				if rest == 0 {
					break
				}
			}
		}
	}
	return Pos{}, false
}

// Hash returns a hash of the whole world: map, rules, players, their cells
// and their speed-limit state. Two worlds with the same hash are, for every
// practical purpose, the same.
func (w *World) Hash() uint64 {
	h := fnv.New64a()
	var b [8]byte
	put := func(v int64) {
		binary.LittleEndian.PutUint64(b[:], uint64(v))
		h.Write(b[:])
	}
	put(int64(w.m.w))
	put(int64(w.m.h))
	h.Write(w.m.cells)
	put(w.rules.MoveTime)
	put(int64(w.rules.Burst))
	for _, c := range w.cells {
		id, p := c.ID, w.players[c.ID]
		put(int64(id))
		put(int64(p.pos.X))
		put(int64(p.pos.Y))
		put(p.limit.next)
		put(int64(p.facing))
		if p.limit.begun {
			put(1)
		} else {
			put(0)
		}
	}
	return h.Sum64()
}

// Clone returns a deep copy of the world sharing only the immutable map.
func (w *World) Clone() *World {
	c := NewWorld(w.m, w.rules)
	for _, pc := range w.cells {
		p := *w.players[pc.ID]
		c.players[pc.ID] = &p
		c.at[p.pos] = pc.ID
	}
	c.cells = slices.Clone(w.cells)
	return c
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
