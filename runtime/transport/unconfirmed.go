package transport

import (
	"sync"
	"time"
)

// unconfirmedLifetime is how long a session may live without a request
// after its initialize (the initialized notification aside): a client
// opening sessions it never uses cannot hold the session table.
const unconfirmedLifetime = 30 * time.Second

// unconfirmed are the sessions that have not yet sent a request after
// their initialize, by id, with when they opened. At the session cap the
// oldest of them makes room for a new one, and they are closed once they
// pass unconfirmedLifetime; a session that sends a request leaves the set
// for good.
type unconfirmed struct {
	mu     sync.Mutex
	opened map[string]time.Time
}

func newUnconfirmed() *unconfirmed { return &unconfirmed{opened: map[string]time.Time{}} }

// add notes a session just opened.
func (u *unconfirmed) add(id string) {
	if id == "" {
		return
	}
	u.mu.Lock()
	u.opened[id] = time.Now()
	u.mu.Unlock()
}

// confirm notes that id sent a request.
func (u *unconfirmed) confirm(id string) {
	u.mu.Lock()
	delete(u.opened, id)
	u.mu.Unlock()
}

// expired removes and returns the sessions past unconfirmedLifetime, and,
// when room is wanted, the oldest one besides them.
func (u *unconfirmed) expired(room bool) []string {
	u.mu.Lock()
	defer u.mu.Unlock()
	var out []string
	oldest, since := "", time.Time{}
	cutoff := time.Now().Add(-unconfirmedLifetime)
	for id, t := range u.opened {
		switch {
		case t.Before(cutoff):
			out = append(out, id)
			delete(u.opened, id)
		case oldest == "" || t.Before(since):
			oldest, since = id, t
		}
	}
	if room && len(out) == 0 && oldest != "" {
		out = append(out, oldest)
		delete(u.opened, oldest)
	}
	return out
}
