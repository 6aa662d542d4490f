package world

import "gridlag/grid"

// news is what changed between two indexed moments, the last broadcast's
// and this one's, bucket by bucket in the buckets' order, so that the
// news of a rectangle of buckets is a few runs of it: the news of a
// tick is found once, and each client's State is put together from the
// runs of its area instead of checking every player it knows.
type news struct {
	moved      []grid.PlayerPos // players that moved or appeared, by the bucket they are in now
	movedStart []int32          // bucket b's are moved[movedStart[b]:movedStart[b+1]]
	came       []crossing       // players now in a bucket they were not in, by that bucket
	cameStart  []int32
	went       []crossing // players no longer in the bucket they were in, by that bucket
	wentStart  []int32
}

// crossing is a player that changed buckets: the bucket it came from, or
// went to; -1 when it appeared (a join) or vanished (a leave).
type crossing struct {
	id     grid.PlayerID
	bucket int32
}

// compare finds the news from base to cur, two indexes of the same map.
func (nw *news) compare(base, cur *areaIndex) {
	n := cur.cols * cur.rows
	nw.moved, nw.came, nw.went = nw.moved[:0], nw.came[:0], nw.went[:0]
	nw.movedStart = resize(nw.movedStart, n+1)
	nw.cameStart = resize(nw.cameStart, n+1)
	nw.wentStart = resize(nw.wentStart, n+1)
	nw.movedStart[0], nw.cameStart[0], nw.wentStart[0] = 0, 0, 0
	for b := range n {
		for _, p := range cur.players[cur.start[b]:cur.start[b+1]] {
			was, ok := base.find(p.ID)
			if !ok || was.Pos != p.Pos {
				nw.moved = append(nw.moved, p)
			}
			if from := base.bucketOf(p.ID); from != int32(b) {
				nw.came = append(nw.came, crossing{id: p.ID, bucket: from})
			}
		}
		nw.movedStart[b+1], nw.cameStart[b+1] = int32(len(nw.moved)), int32(len(nw.came))
		if b < base.cols*base.rows {
			for i := base.start[b]; i < base.start[b+1]; i++ {
				if !base.present(i) {
					continue // it left the game
				}
				if to := cur.bucketOf(base.players[i].ID); to != int32(b) {
					nw.went = append(nw.went, crossing{id: base.players[i].ID, bucket: to})
				}
			}
		}
		nw.wentStart[b+1] = int32(len(nw.went))
	}
}
