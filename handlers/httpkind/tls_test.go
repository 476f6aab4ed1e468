package httpkind_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"log"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/handlers/handlertest"
)

func certPEM(der []byte) string {
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

// clientCert makes a self-signed client certificate and its key, in PEM.
func clientCert(t *testing.T) (*x509.Certificate, string, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "mcpgen-test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
		BasicConstraintsValid: true, IsCA: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	kder, _ := x509.MarshalECPrivateKey(key)
	return cert, certPEM(der), string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}))
}

func TestTLS(t *testing.T) {
	t.Parallel()
	srv := httptest.NewUnstartedServer(jsonReply(200, map[string]any{"secure": true}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	defer srv.Close()
	ca := map[string]string{"ca.pem": certPEM(srv.Certificate().Raw)}

	t.Run("custom CA", func(t *testing.T) {
		s := handlertest.Build(t, registry(), withBackend(srv.URL, "tls: {ca_file: ca.pem}\n", tool("", "")), ca)
		mustSucceed(t, call(t, s, "t", `{}`))
	})
	t.Run("unknown CA is refused", func(t *testing.T) {
		s := build(t, withBackend(srv.URL, "retries: {max: 0}\n", tool("", "")))
		if got := mustFail(t, call(t, s, "t", `{}`)); !strings.Contains(got, "certificate") {
			t.Errorf("error %q does not mention the certificate", got)
		}
	})
	t.Run("insecure works and warns", func(t *testing.T) {
		cfg := withBackend(srv.URL, "tls: {insecure: true}\n", tool("", ""))
		if ds := diagnose(t, cfg); !strings.Contains(ds, "warning") || !strings.Contains(ds, "not verified") {
			t.Errorf("want a warning about insecure TLS, got %q", ds)
		}
		mustSucceed(t, call(t, build(t, cfg), "t", `{}`))
	})
}

func TestClientCertificate(t *testing.T) {
	t.Parallel()
	cert, certFile, keyFile := clientCert(t)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		jsonReply(200, map[string]any{"client": r.TLS.PeerCertificates[0].Subject.CommonName})(w, r)
	}))
	pool := x509.NewCertPool()
	pool.AddCert(cert)
	srv.TLS = &tls.Config{ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // refused handshakes are expected
	srv.StartTLS()
	defer srv.Close()
	files := map[string]string{"ca.pem": certPEM(srv.Certificate().Raw), "tls/client.pem": certFile, "tls/client.key": keyFile}
	s := handlertest.Build(t, registry(), withBackend(srv.URL,
		"tls: {ca_file: ca.pem, cert_file: tls/client.pem, key_file: tls/client.key}\n", tool("", "")), files)
	if got := mustSucceed(t, call(t, s, "t", `{}`)); !strings.Contains(got, "mcpgen-test") {
		t.Errorf("the server did not see the client certificate: %s", got)
	}
	s = handlertest.Build(t, registry(), withBackend(srv.URL, "tls: {ca_file: ca.pem}\nretries: {max: 0}\n", tool("", "")), files)
	mustFail(t, call(t, s, "t", `{}`))
}

func TestTLSConfigErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, tls, want string }{
		{"missing CA file", "tls: {ca_file: nope.pem}", "cannot read nope.pem"},
		{"device CA file", "tls: {ca_file: /dev/zero}", "tls.ca_file: cannot read /dev/zero: not a regular file (a character device)"},
		{"device cert", "tls: {cert_file: /dev/zero, key_file: k.pem}", "tls.cert_file: cannot read /dev/zero: not a regular file"},
		{"cert without key", "tls: {cert_file: c.pem}", "give both cert_file and key_file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if ds := diagnose(t, withBackend("https://127.0.0.1:9", tt.tls+"\n", tool("", ""))); !strings.Contains(ds, tt.want) {
				t.Errorf("diagnostics %q do not mention %q", ds, tt.want)
			}
		})
	}
}
