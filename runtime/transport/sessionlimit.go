package transport

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
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

// clientAddr is the address a request came from, without its port: its
// connection's, or, when that is a trusted proxy's, the address
// X-Forwarded-For names last that is not a trusted proxy's (the entries
// before it were written by whoever sent the request, and prove nothing).
func clientAddr(r *http.Request, trusted []netip.Prefix) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	addr, err := netip.ParseAddr(host)
	if err != nil || !inPrefixes(addr.Unmap(), trusted) {
		return host
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		hop, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
		if err != nil {
			return host // a garbled chain: the proxy itself
		}
		if !inPrefixes(hop.Unmap(), trusted) {
			return hop.Unmap().String()
		}
	}
	return host
}

func inPrefixes(a netip.Addr, ps []netip.Prefix) bool {
	for _, p := range ps {
		if p.Contains(a) {
			return true
		}
	}
	return false
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
