package main

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// serve --http warns at start when no auth guards an address other
// machines reach, and only then.
func TestServeWarnsWithoutAuth(t *testing.T) {
	for _, tt := range []struct {
		addr    string
		hasAuth bool
		warn    bool
	}{
		{"0.0.0.0:8080", false, true},
		{":8080", false, true},
		{"10.1.2.3:8080", false, true},
		{"0.0.0.0:8080", true, false},
		{"127.0.0.1:8080", false, false},
		{"localhost:8080", false, false},
		{"[::1]:8080", false, false},
	} {
		var out bytes.Buffer
		warnExposed(slog.New(slog.NewTextHandler(&out, nil)), tt.hasAuth, tt.addr)
		if got := strings.Contains(out.String(), "no auth is configured"); got != tt.warn {
			t.Errorf("%s, auth %v: warned %v, want %v (%q)", tt.addr, tt.hasAuth, got, tt.warn, out.String())
		}
	}
}
