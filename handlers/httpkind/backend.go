package httpkind

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/load/regfile"
	"github.com/mcpgen/mcpgen/spec"
)

// Defaults of the limits.
const (
	DefaultTimeout     = 30 * time.Second
	DefaultMaxResponse = 4 << 20
	DefaultRetries     = 2
	DefaultBackoff     = 200 * time.Millisecond
	DefaultMaxBackoff  = 10 * time.Second
	maxRedirects       = 5
)

// backend is an opened connection to one API, shared by its tools. Its
// transport keeps connections alive across calls.
type backend struct {
	base      *url.URL
	headers   http.Header
	auth      *authenticator
	signer    *signer // signs each attempt; nil when requests are not signed
	transport *http.Transport
	limits    limits
	forward   []string  // headers of the client's request copied onto requests
	defaults  *defaults // settings of its tools; nil for a tool's own connection
}

// limits are the resolved bounds of a call.
type limits struct {
	timeout     time.Duration
	maxResponse int64
	retries     int
	backoff     time.Duration
	maxBackoff  time.Duration
}

// Open checks the backend's settings and prepares its client; it connects
// to nothing.
func (c *BackendConfig) Open(env handlers.BuildEnv) any {
	b, ok := c.SharedConnection.Open(env).(*backend)
	if !ok {
		return nil
	}
	b.defaults = compileDefaults(env, &c.ToolDefaults)
	if env.Failed() {
		return nil
	}
	return b
}

// Open checks a shared connection's settings and prepares its client; it
// connects to nothing.
func (c *SharedConnection) Open(env handlers.BuildEnv) any {
	headers, ok := backendHeaders(env, c.Headers)
	if !ok {
		return nil
	}
	b := openBackend(env, &c.Connection, headers)
	if b == nil {
		return nil
	}
	b.limits = c.Limits.resolve(defaultLimits())
	b.forward = compileForward(env, "forward_headers", c.ForwardHeaders)
	return b
}

func defaultLimits() limits {
	return limits{timeout: DefaultTimeout, maxResponse: DefaultMaxResponse, retries: DefaultRetries,
		backoff: DefaultBackoff, maxBackoff: DefaultMaxBackoff}
}

// resolve applies the limits that are set over base.
func (l *Limits) resolve(base limits) limits {
	if l.Timeout > 0 {
		base.timeout = time.Duration(l.Timeout)
	}
	if l.MaxResponse > 0 {
		base.maxResponse = int64(l.MaxResponse)
	}
	if r := l.Retries; r != nil {
		if r.Max != nil {
			base.retries = max(*r.Max, 0)
		}
		if r.Backoff > 0 {
			base.backoff = time.Duration(r.Backoff)
		}
		if r.MaxBackoff > 0 {
			base.maxBackoff = time.Duration(r.MaxBackoff)
		}
	}
	return base
}

// backendHeaders computes a backend's headers, once: their expressions
// read only the environment. It reports false after an error.
func backendHeaders(env handlers.BuildEnv, m map[string]spec.Value) (map[string]string, bool) {
	out := make(map[string]string, len(m))
	for _, p := range compileParams(env, "headers", m, nil) {
		if p.val == nil {
			continue // reported
		}
		v, err := p.val.String(map[string]any{}, nil)
		if err != nil {
			env.Diag("headers."+p.name, err.Error())
			continue
		}
		out[p.name] = v
	}
	return out, !env.Failed()
}

// openBackend validates a connection and builds its client, reporting
// problems through env. It returns nil after reporting.
func openBackend(env handlers.BuildEnv, c *Connection, headers map[string]string) *backend {
	ok := true
	base, err := parseBase(c.BaseURL)
	switch {
	case c.BaseURL != nil && unsetVariable(*c.BaseURL):
		// calls fail until it is set; validating without secrets is fine
		env.Warn("base_url", fmt.Sprintf("base_url %q has no scheme or host; %s", *c.BaseURL, unsetHint))
	case err != nil:
		env.Diag("base_url", err.Error())
		ok = false
	}
	h := http.Header{}
	for name, v := range headers {
		if err := checkHeader(name, v); err != nil {
			env.Diag("headers."+name, err.Error())
			ok = false
		}
		h.Set(name, v)
	}
	auth := buildAuth(env, c.Auth)
	sign, signOK := buildSigner(env, c.Signing)
	tlsConf, tlsOK := buildTLS(env, c.TLS)
	if !ok || !tlsOK || !signOK || (c.Auth != nil && auth == nil) {
		return nil
	}
	tr := newTransport(tlsConf)
	b := &backend{base: base, headers: h, auth: auth, signer: sign, transport: tr}
	if auth != nil {
		auth.client = &http.Client{Transport: tr, CheckRedirect: noRedirects}
	}
	return b
}

// unsetHint explains a URL that unsetVariable recognises.
const unsetHint = "is an environment variable unset? Calls fail until it is set"

// unsetVariable reports whether a URL looks like one whose leading
// environment variable was unset (validating with --skip-env leaves it
// empty): nothing, or only a path.
func unsetVariable(u string) bool { return u == "" || strings.HasPrefix(u, "/") }

func parseBase(p *string) (*url.URL, error) {
	if p == nil {
		return nil, errors.New("missing base_url, e.g. https://api.example.com/v1")
	}
	s := *p
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return nil, fmt.Errorf("invalid base_url: %v", errors.Unwrap(err))
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("base_url %q needs an http or https scheme", s)
	case u.Host == "":
		return nil, fmt.Errorf("base_url %q has no host", s)
	case u.User != nil:
		return nil, errors.New("base_url must not hold credentials; use auth")
	case u.RawQuery != "" || u.Fragment != "":
		return nil, errors.New("base_url must not have a query or fragment; use query")
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = strings.TrimSuffix(u.RawPath, "/")
	return u, nil
}

// checkHeader refuses header names and values that could split a request.
func checkHeader(name, value string) error {
	if name == "" || strings.ContainsAny(name, " \t\r\n:") {
		return fmt.Errorf("invalid header name %q", name)
	}
	if strings.ContainsAny(value, "\r\n\x00") {
		return fmt.Errorf("the value of header %s holds a line break", name)
	}
	return nil
}

func buildTLS(env handlers.BuildEnv, t *TLS) (*tls.Config, bool) {
	if t == nil {
		return nil, true
	}
	conf := &tls.Config{MinVersion: tls.VersionTLS12}
	ok := true
	if t.CAFile != "" {
		pem, err := regfile.Read(env.Path(t.CAFile), 0)
		pool := x509.NewCertPool()
		switch {
		case err != nil:
			env.Diag("tls.ca_file", fmt.Sprintf("cannot read %s: %s", t.CAFile, regfile.Message(err)))
			ok = false
		case !pool.AppendCertsFromPEM(pem):
			env.Diag("tls.ca_file", fmt.Sprintf("%s holds no PEM certificate", t.CAFile))
			ok = false
		}
		conf.RootCAs = pool
	}
	if (t.CertFile == "") != (t.KeyFile == "") {
		env.Diag("tls", "give both cert_file and key_file for a client certificate")
		ok = false
	} else if t.CertFile != "" {
		cert, certOK := loadKeyPair(env, t)
		ok = ok && certOK
		conf.Certificates = []tls.Certificate{cert}
	}
	if t.Insecure {
		env.Warn("tls.insecure", "TLS certificates are not verified: anyone on the network path can read and alter requests, credentials included")
		conf.InsecureSkipVerify = true
	}
	return conf, ok
}

// loadKeyPair reads the client certificate and its key: regular files of
// bounded size, so that a config cannot point them at a device or a pipe.
func loadKeyPair(env handlers.BuildEnv, t *TLS) (tls.Certificate, bool) {
	certPEM, err := regfile.Read(env.Path(t.CertFile), 0)
	if err != nil {
		env.Diag("tls.cert_file", fmt.Sprintf("cannot read %s: %s", t.CertFile, regfile.Message(err)))
		return tls.Certificate{}, false
	}
	keyPEM, err := regfile.Read(env.Path(t.KeyFile), 0)
	if err != nil {
		env.Diag("tls.key_file", fmt.Sprintf("cannot read %s: %s", t.KeyFile, regfile.Message(err)))
		return tls.Certificate{}, false
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		env.Diag("tls.cert_file", fmt.Sprintf("cannot load the client certificate: %v", err))
		return tls.Certificate{}, false
	}
	return cert, true
}

func newTransport(conf *tls.Config) *http.Transport {
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          256,
		MaxIdleConnsPerHost:   64,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
		TLSClientConfig:       conf,
	}
}

// noRedirects keeps the OAuth token endpoint from redirecting the client
// secret anywhere.
func noRedirects(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

func sameOrigin(a, b *url.URL) bool {
	return a.Scheme == b.Scheme && strings.EqualFold(a.Host, b.Host)
}

// Close closes idle connections.
func (b *backend) Close() error {
	b.transport.CloseIdleConnections()
	return nil
}

var _ handlers.BackendConfig = (*BackendConfig)(nil)
