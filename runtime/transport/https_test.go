package transport_test

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/auth/authtest"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

func TestServeHTTPS(t *testing.T) {
	dir := t.TempDir()
	authtest.WriteCert(t, dir, "mcpgen-test")
	srv, _ := build(t, nil, "version: 1\nserver: {http: {tls: {cert_file: cert.pem, key_file: key.pem}}}\n",
		map[string]string{"cert.pem": mustRead(t, filepath.Join(dir, "cert.pem")), "key.pem": mustRead(t, filepath.Join(dir, "key.pem"))})
	_, opts := transport.HTTPConfig(srv)
	addrc := make(chan string, 1)
	opts.OnListen = func(a net.Addr) { addrc <- a.String() }
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- transport.ListenAndServe(ctx, srv, "127.0.0.1:0", opts) }()
	addr := <-addrc
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}
	resp, err := client.Get("https://" + addr + transport.HealthzPath)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.TLS == nil || resp.TLS.PeerCertificates[0].Subject.CommonName != "mcpgen-test" {
		t.Errorf("not served over TLS with the configured certificate: %+v", resp.TLS)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
