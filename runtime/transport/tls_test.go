package transport

import (
	"crypto/tls"
	"crypto/x509"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/auth/authtest"
)

func TestCertReloader(t *testing.T) {
	dir := t.TempDir()
	authtest.WriteCert(t, dir, "first")
	r, err := newCertReloader(filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem"))
	if err != nil {
		t.Fatal(err)
	}
	cn := func() string {
		c, err := r.GetCertificate(&tls.ClientHelloInfo{})
		if err != nil {
			t.Fatal(err)
		}
		leaf, err := x509.ParseCertificate(c.Certificate[0])
		if err != nil {
			t.Fatal(err)
		}
		return leaf.Subject.CommonName
	}
	if got := cn(); got != "first" {
		t.Fatalf("serving %q", got)
	}
	authtest.WriteCert(t, dir, "renewed")
	if got := cn(); got != "renewed" {
		t.Errorf("after renewal serving %q, want renewed", got)
	}
	// A broken renewal keeps the last good certificate.
	if err := os.WriteFile(filepath.Join(dir, "cert.pem"), []byte("garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := cn(); got != "renewed" {
		t.Errorf("after a broken renewal serving %q, want renewed", got)
	}
	if _, err := newCertReloader(filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")); err == nil {
		t.Error("a broken pair loaded at start")
	}
}
