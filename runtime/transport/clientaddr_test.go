package transport

import (
	"net/http/httptest"
	"net/netip"
	"testing"
)

// TestClientAddr: X-Forwarded-For names the client only when the
// connection is a trusted proxy's, and then its last untrusted entry (the
// ones before it could be written by anyone).
func TestClientAddr(t *testing.T) {
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
	for _, tt := range []struct{ name, remote, xff, want string }{
		{"direct", "192.0.2.1:5000", "", "192.0.2.1"},
		{"direct, a forged header", "192.0.2.1:5000", "198.51.100.7", "192.0.2.1"},
		{"through the proxy", "10.1.2.3:5000", "198.51.100.7", "198.51.100.7"},
		{"a forged entry before the real one", "10.1.2.3:5000", "203.0.113.66, 198.51.100.7", "198.51.100.7"},
		{"two trusted hops", "10.1.2.3:5000", "198.51.100.7, 10.9.9.9", "198.51.100.7"},
		{"the proxy without a header", "10.1.2.3:5000", "", "10.1.2.3"},
		{"a garbled chain", "10.1.2.3:5000", "not-an-ip", "10.1.2.3"},
		{"IPv4-mapped", "[::ffff:10.1.2.3]:5000", "198.51.100.7", "198.51.100.7"},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tt.remote
		if tt.xff != "" {
			r.Header.Set("X-Forwarded-For", tt.xff)
		}
		if got := clientAddr(r, trusted); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
