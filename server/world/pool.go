package world

// pool hands out reusable values for one batch of output. Everything taken
// since the last reset stays untouched until the next reset, which the Core
// does only once the batch has been drained with Outbox, so steady-state
// ticks allocate nothing.
type pool[T any] struct {
	items []*T
	used  int
}

// get returns a value from the pool, allocating only when the pool is
// exhausted. The value keeps whatever it held last time; the caller
// overwrites it.
func (p *pool[T]) get() *T {
	if p.used == len(p.items) {
		p.items = append(p.items, new(T))
	}
	v := p.items[p.used]
	p.used++
	return v
}

// reset makes every value available again.
func (p *pool[T]) reset() { p.used = 0 }
