package remote

import (
	"sync"
	"time"

	"gridlag/protocol"
)

// keptTokens holds, for each identity whose session dropped (an SSH key's
// fingerprint, a browser's identity), the resume token of its avatar in
// the game until the game server's window ends: a new session with the
// same identity takes it and comes back as the same player. It is safe
// for concurrent use.
type keptTokens struct {
	mu sync.Mutex
	m  map[string]keptToken
}

// keptToken is one fingerprint's token and when the game server forgets
// it.
type keptToken struct {
	token protocol.Token
	room  string // the room it plays in, for the title: the game server finds it by the token
	until time.Time
}

// keep stores fingerprint's token (of an avatar in room) until now+window, in place of any
// earlier one, and forgets those whose window has ended.
func (k *keptTokens) keep(fingerprint string, tok protocol.Token, room string, now time.Time, window time.Duration) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.m == nil {
		k.m = make(map[string]keptToken)
	}
	for fp, kt := range k.m {
		if !now.Before(kt.until) {
			delete(k.m, fp)
		}
	}
	k.m[fingerprint] = keptToken{token: tok, room: room, until: now.Add(window)}
}

// take returns fingerprint's token and its room if its window has not ended at now,
// and forgets it: a token works once.
func (k *keptTokens) take(fingerprint string, now time.Time) (protocol.Token, string, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	kt, ok := k.m[fingerprint]
	delete(k.m, fingerprint)
	if !ok || !now.Before(kt.until) {
		return protocol.Token{}, "", false
	}
	return kt.token, kt.room, true
}
