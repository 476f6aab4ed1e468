package transport

import (
	"cmp"
	"crypto/tls"
	"fmt"
	"os"
	"sync"
	"time"
)

// certReloader serves a certificate from files, and loads them again when
// either file changes (a renewal), so that serving never restarts. A
// renewal that does not load (a half-written pair) keeps the last good
// certificate, and is tried again on the next handshake.
type certReloader struct {
	certFile, keyFile string

	mu       sync.Mutex
	cert     *tls.Certificate
	certMod  time.Time
	keyMod   time.Time
	lastFail error
}

// newCertReloader loads the pair once, so that a bad pair fails at start.
func newCertReloader(certFile, keyFile string) (*certReloader, error) {
	r := &certReloader{certFile: certFile, keyFile: keyFile}
	if _, err := r.get(); err != nil {
		return nil, err
	}
	return r, nil
}

// GetCertificate is the tls.Config hook.
func (r *certReloader) GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) { return r.get() }

func (r *certReloader) get() (*tls.Certificate, error) {
	cs, cerr := os.Stat(r.certFile)
	ks, kerr := os.Stat(r.keyFile)
	r.mu.Lock()
	defer r.mu.Unlock()
	if cerr == nil && kerr == nil && (!cs.ModTime().Equal(r.certMod) || !ks.ModTime().Equal(r.keyMod)) {
		cert, err := tls.LoadX509KeyPair(r.certFile, r.keyFile)
		if err == nil {
			r.cert, r.certMod, r.keyMod, r.lastFail = &cert, cs.ModTime(), ks.ModTime(), nil
		} else {
			r.lastFail = err
		}
	}
	if r.cert == nil {
		err := cmp.Or(r.lastFail, cerr, kerr)
		return nil, fmt.Errorf("loading the TLS certificate: %w", err)
	}
	return r.cert, nil
}

// serverTLS returns the server's TLS settings for a certificate pair.
func serverTLS(certFile, keyFile string) (*tls.Config, error) {
	r, err := newCertReloader(certFile, keyFile)
	if err != nil {
		return nil, err
	}
	return &tls.Config{MinVersion: tls.VersionTLS12, GetCertificate: r.GetCertificate}, nil
}
