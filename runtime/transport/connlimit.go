package transport

import (
	"net"
	"net/http"
	"net/netip"
	"sync"
	"time"
)

// connLimiter caps a listener's open connections, in total and per client
// address, so that a flood of idle connections cannot lock well-behaved
// clients out:
//   - when the total cap is reached, the connection idle the longest (a
//     kept-alive connection between requests) is closed to make room; a
//     new connection is refused (closed at once, not left waiting in the
//     kernel's queue) only when every open one is busy;
//   - one client address holds at most perClient connections; addresses
//     of trusted proxies (a load balancer, every client's connections
//     coming from it) are not capped.
//
// http.Server.ConnState must be set to track, which tells it which
// connections are idle.
type connLimiter struct {
	net.Listener
	max, perClient int
	trusted        []netip.Prefix

	mu     sync.Mutex
	open   map[*limitedConn]struct{}
	byAddr map[netip.Addr]int
	idle   map[*limitedConn]time.Time // since when
}

func newConnLimiter(ln net.Listener, max, perClient int, trusted []netip.Prefix) *connLimiter {
	return &connLimiter{Listener: ln, max: max, perClient: perClient, trusted: trusted,
		open: map[*limitedConn]struct{}{}, byAddr: map[netip.Addr]int{}, idle: map[*limitedConn]time.Time{}}
}

// limitedConn is a connection the limiter counts until it is closed.
type limitedConn struct {
	net.Conn
	l    *connLimiter
	addr netip.Addr
	once sync.Once
}

// Close closes the connection and gives its place back, once.
func (c *limitedConn) Close() error {
	c.once.Do(c.l.release(c))
	return c.Conn.Close()
}

// Accept returns the next connection the limits admit, closing those they
// refuse.
func (l *connLimiter) Accept() (net.Conn, error) {
	for {
		conn, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if c := l.admit(conn); c != nil {
			return c, nil
		}
		_ = conn.Close()
	}
}

// admit counts conn in, making room by closing the connection idle the
// longest if it must; nil when conn is refused.
func (l *connLimiter) admit(conn net.Conn) *limitedConn {
	addr := remoteAddr(conn)
	l.mu.Lock()
	if l.perClient > 0 && l.byAddr[addr] >= l.perClient && !l.isTrusted(addr) {
		l.mu.Unlock()
		return nil
	}
	var evict *limitedConn
	if l.max > 0 && len(l.open) >= l.max {
		if evict = l.longestIdle(); evict == nil {
			l.mu.Unlock()
			return nil
		}
		delete(l.idle, evict) // not chosen twice while it closes
	}
	c := &limitedConn{Conn: conn, l: l, addr: addr}
	l.open[c] = struct{}{}
	l.byAddr[addr]++
	l.mu.Unlock()
	if evict != nil {
		_ = evict.Close() // its place was counted for c already
	}
	return c
}

// release returns the function that gives c's place back.
func (l *connLimiter) release(c *limitedConn) func() {
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		delete(l.open, c)
		delete(l.idle, c)
		if l.byAddr[c.addr]--; l.byAddr[c.addr] <= 0 {
			delete(l.byAddr, c.addr)
		}
	}
}

// longestIdle returns the connection idle the longest, or nil.
func (l *connLimiter) longestIdle() *limitedConn {
	var oldest *limitedConn
	var since time.Time
	for c, t := range l.idle {
		if oldest == nil || t.Before(since) {
			oldest, since = c, t
		}
	}
	return oldest
}

// track is the server's ConnState hook: it notes which connections are
// idle between requests.
func (l *connLimiter) track(conn net.Conn, state http.ConnState) {
	c, ok := unwrapConn(conn).(*limitedConn)
	if !ok {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, open := l.open[c]; !open {
		return
	}
	if state == http.StateIdle {
		l.idle[c] = time.Now()
	} else {
		delete(l.idle, c)
	}
}

func (l *connLimiter) isTrusted(addr netip.Addr) bool { return inPrefixes(addr, l.trusted) }

// unwrapConn returns the connection under a TLS one.
func unwrapConn(c net.Conn) net.Conn {
	if u, ok := c.(interface{ NetConn() net.Conn }); ok {
		return u.NetConn()
	}
	return c
}

// remoteAddr is the IP address a connection comes from.
func remoteAddr(c net.Conn) netip.Addr {
	if ap, err := netip.ParseAddrPort(c.RemoteAddr().String()); err == nil {
		return ap.Addr().Unmap()
	}
	return netip.Addr{}
}

// parseTrusted reads trusted proxy addresses: IPs or CIDR prefixes.
func parseTrusted(list []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range list {
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil {
			return nil, err
		}
		out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
	}
	return out, nil
}
