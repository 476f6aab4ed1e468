package runtime

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/load"
)

func TestAuthConfigDiagnostics(t *testing.T) {
	_, ds := compileText(t, `version: 1
server:
  http:
    auth:
      required_scopes: ["two words"]
      oauth:
        issuer: idp.example.com
        algorithms: [HS256, none, ES256]
        leeway: 1h
      api_keys:
        - {name: ci, key: short}
        - {name: ci, key: 0123456789abcdef0}
tools:
  - name: t
    description: d
    scopes: ['a"b']
    content: [{text: x}]
`, nil)
	for _, want := range [][]string{
		{"server.http.auth:", "oauth needs `resource`"},
		{"server.http.auth.required_scopes[0]:", `"two words" is not a scope`},
		{"server.http.auth.oauth.issuer:", "not an absolute http(s) URL"},
		{"server.http.auth.oauth.algorithms[0]:", `"HS256" is not an accepted signature algorithm`},
		{"server.http.auth.oauth.algorithms[1]:", `"none" is not an accepted`},
		{"server.http.auth.oauth.leeway:", "between 0 and 5m0s"},
		{"server.http.auth.api_keys[0].key:", "at least 16 characters"},
		{"server.http.auth.api_keys[1].name:", `API key "ci" is defined twice`},
		{"tools[0].scopes[0]:", "is not a scope"},
	} {
		wantDiag(t, ds, want...)
	}
	if n := ds.Errors(); n != 9 {
		t.Errorf("%d errors, want 9:\n%v", n, ds)
	}
}

func TestAuthEmptyIsAnError(t *testing.T) {
	_, ds := compileText(t, "version: 1\nserver: {http: {auth: {required_scopes: [x]}}}\n", nil)
	wantDiag(t, ds, "server.http.auth:", "auth needs oauth or api_keys")
}

func TestExposedWithoutAuthWarns(t *testing.T) {
	for _, tt := range []struct {
		addr string
		warn bool
	}{{"0.0.0.0:8080", true}, {":8080", true}, {"10.1.2.3:80", true}, {"127.0.0.1:8080", false}, {"localhost:9", false}, {"[::1]:9", false}} {
		srv, ds := compileText(t, "version: 1\nserver: {http: {addr: '"+tt.addr+"'}}\n", nil)
		if srv == nil {
			t.Fatalf("%s: %v", tt.addr, ds)
		}
		if got := ds.Warnings() == 1 && strings.Contains(ds[0].Message, "no auth is configured"); got != tt.warn {
			t.Errorf("%s: warned %v, want %v: %v", tt.addr, got, tt.warn, ds)
		}
	}
	srv, ds := compileText(t, `version: 1
server: {http: {addr: '0.0.0.0:8080', auth: {api_keys: [{name: k, key: 0123456789abcdef0}]}}}
`, nil)
	if srv == nil || len(ds) != 0 {
		t.Errorf("exposed with auth: %v", ds)
	}
}

func TestTLSConfigDiagnostics(t *testing.T) {
	_, ds := compileText(t, "version: 1\nserver: {http: {tls: {cert_file: missing.pem, key_file: missing.key}}}\n", nil)
	wantDiag(t, ds, "server.http.tls:", "cannot load the certificate")
}

// TestAuthSkipEnv: validate --skip-env on a machine without the secrets
// reports nothing about the auth settings the variables would fill.
func TestAuthSkipEnv(t *testing.T) {
	dir := writeFiles(t, map[string]string{"mcpgen.yaml": `version: 1
server:
  http:
    auth:
      resource: ${AUD}
      oauth: {issuer: "${ISS}", jwks_url: "${JWKS}", introspection: {url: "${INTRO}", client_id: "${ID}", client_secret: "${SECRET}"}}
      api_keys: [{name: ci, key: "${KEY}"}]
`})
	srv, ds := Compile([]string{filepath.Join(dir, "mcpgen.yaml")}, load.Options{LookupEnv: envMap(nil), SkipEnv: true},
		BuildOptions{})
	if srv == nil || len(ds) > 0 {
		t.Errorf("diagnostics with unset variables skipped:\n%v", ds)
	}
	if srv != nil {
		srv.Close()
	}
}
