package transport_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// idleConn opens a connection from the loopback address from, sends one
// request on it and keeps it open (kept alive, idle); nil when the server
// refused it.
func idleConn(t *testing.T, addr, from string) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}, Timeout: 2 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	_ = c.SetDeadline(time.Now().Add(2 * time.Second))
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", transport.HealthzPath, addr)
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return nil // closed by the server: refused
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	_ = c.SetDeadline(time.Time{})
	return c
}

// served reports whether a new client from the loopback address from gets
// an answer within 2 s.
func served(t *testing.T, addr, from string) bool {
	t.Helper()
	tr := &http.Transport{DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}).DialContext}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr, Timeout: 2 * time.Second}
	resp, err := c.Get("http://" + addr + transport.HealthzPath)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// TestIdleConnectionsDoNotLockOut: idle kept-alive connections beyond the
// connection cap (from many addresses, as a flood would come) do not keep
// a new client out: the connection idle the longest makes room for it.
func TestIdleConnectionsDoNotLockOut(t *testing.T) {
	addr := listen(t, nil, robustConfig, transport.HTTPOptions{MaxConnections: 40, MaxConnectionsPerClient: 4})
	for i := range 60 {
		idleConn(t, addr, fmt.Sprintf("127.0.1.%d", 1+i/4))
	}
	for i := range 5 {
		if !served(t, addr, fmt.Sprintf("127.0.2.%d", 1+i)) {
			t.Fatalf("new client %d was not served while 40 idle connections held the cap", i)
		}
	}
}

// TestConnectionsCappedPerClient: one address holds at most
// max_connections_per_client connections; further ones are closed at
// once, another address is still served, and a trusted proxy's address is
// not capped.
func TestConnectionsCappedPerClient(t *testing.T) {
	addr := listen(t, nil, robustConfig, transport.HTTPOptions{MaxConnectionsPerClient: 8,
		TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.3.9/32")}})
	kept := 0
	for range 20 {
		if idleConn(t, addr, "127.0.3.1") != nil {
			kept++
		}
	}
	if kept != 8 {
		t.Errorf("one address kept %d connections, want 8", kept)
	}
	if !served(t, addr, "127.0.3.2") {
		t.Error("another address was not served")
	}
	proxied := 0
	for range 20 {
		if idleConn(t, addr, "127.0.3.9") != nil {
			proxied++
		}
	}
	if proxied != 20 {
		t.Errorf("the trusted proxy kept %d connections, want all 20", proxied)
	}
}

// TestConfigTrustedProxies: server.http.trusted_proxies takes IPs and
// prefixes, and refuses anything else at its position.
func TestConfigTrustedProxies(t *testing.T) {
	srv, _ := build(t, nil, "version: 1\nserver:\n  http:\n    trusted_proxies: [10.0.0.0/8, 192.0.2.10]\n", nil)
	_, opts := transport.HTTPConfig(srv)
	if fmt.Sprint(opts.TrustedProxies) != "[10.0.0.0/8 192.0.2.10/32]" || opts.MaxConnectionsPerClient != transport.DefaultMaxConnsPerClient {
		t.Errorf("trusted proxies %v, per client %d", opts.TrustedProxies, opts.MaxConnectionsPerClient)
	}
	ds := buildErrors(t, "version: 1\nserver:\n  http:\n    trusted_proxies: [10.0.0.0/33, lb.example]\n")
	for _, want := range []string{`trusted_proxies[0]: "10.0.0.0/33" is not an IP address or a CIDR prefix`, `trusted_proxies[1]: "lb.example"`} {
		if !strings.Contains(ds, want) {
			t.Errorf("diagnostics %q lack %q", ds, want)
		}
	}
}

// buildErrors builds config and returns its diagnostics.
func buildErrors(t *testing.T, config string) string {
	t.Helper()
	path := t.TempDir() + "/mcpgen.yaml"
	writeFile(t, path, config)
	srv, ds := runtime.Compile([]string{path}, load.Options{}, runtime.BuildOptions{})
	if srv != nil {
		srv.Close()
	}
	return fmt.Sprint(ds)
}
