package transport

import (
	"net"
	"net/http"
	"sync"
)

// clientSessions caps the live sessions opened from one client address, so
// that one client flooding initialize cannot take every session.
type clientSessions struct {
	max int // negative: no cap

	mu     sync.Mutex
	byAddr map[string]*addrSessions
}

// addrSessions are the sessions one address opened, and its initialize
// requests still being answered.
type addrSessions struct {
	ids     []string
	opening int
}

func newClientSessions(max int) *clientSessions {
	return &clientSessions{max: max, byAddr: map[string]*addrSessions{}}
}

// clientAddr is the address a request came from, without its port.
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// reserve reports whether addr may open one more session, counting the
// sessions it opened that are still live. A true result must be followed
// by opened.
func (c *clientSessions) reserve(addr string, live func() map[string]bool) bool {
	if c.max < 0 {
		return true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	a := c.byAddr[addr]
	if a == nil {
		a = &addrSessions{}
		c.byAddr[addr] = a
	}
	if len(a.ids)+a.opening >= c.max && len(a.ids) > 0 {
		alive := live()
		kept := a.ids[:0]
		for _, id := range a.ids {
			if alive[id] {
				kept = append(kept, id)
			}
		}
		a.ids = kept
	}
	if len(a.ids)+a.opening >= c.max {
		return false
	}
	a.opening++
	return true
}

// opened ends a reservation: id is the session opened, "" for none.
func (c *clientSessions) opened(addr, id string) {
	if c.max < 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	a := c.byAddr[addr]
	if a == nil {
		return
	}
	a.opening--
	if id != "" {
		a.ids = append(a.ids, id)
	}
	if len(a.ids) == 0 && a.opening == 0 {
		delete(c.byAddr, addr)
	}
}
