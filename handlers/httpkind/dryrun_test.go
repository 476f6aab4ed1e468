package httpkind_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/load"
)

// buildEnv builds config with the environment env.
func buildEnv(t *testing.T, config string, env map[string]string) *runtime.Server {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mcpgen.yaml")
	if err := os.WriteFile(path, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	srv, ds := runtime.Compile([]string{path}, load.Options{LookupEnv: lookup}, runtime.BuildOptions{Registry: registry()})
	if ds.Errors() > 0 {
		t.Fatalf("config does not build:\n%v", ds)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

func TestDryRun(t *testing.T) {
	t.Parallel()
	srv := newRecorder(t, jsonReply(200, map[string]any{}))
	t.Cleanup(func() { // after the parallel subtests
		if n := len(srv.requests()); n != 0 {
			t.Errorf("a dry run sent %d requests", n)
		}
	})
	for _, tt := range []struct{ name, auth, handler, want string }{
		{"bearer from the environment and a JSON body", "auth: {bearer: '${TOKEN}'}",
			"method: POST\npath: /tickets/${{ args.id }}/comments\nheaders: {X-Note: '${NOTE}'}\nbody:\n  json: {text: '${{ args.text }}', n: 2}",
			"POST URL/api/tickets/a%2Fb/comments\nAccept: application/json\nAuthorization: Bearer ****\nContent-Type: application/json\nX-Note: note-not-secret-43\n\n{\"n\":2,\"text\":\"hi\"}\n"},
		{"api key in the query", "auth: {api_key: {query: key, value: literal-key}}", "path: /x\nquery: {q: '${{ args.text }}'}",
			"GET URL/api/x?key=%2A%2A%2A%2A&q=hi\nAccept: application/json\n"},
		{"basic", "auth: {basic: {username: ann, password: '${TOKEN}'}}", "method: DELETE\nmethod_override: true",
			"POST URL/api\nAccept: application/json\nAuthorization: Basic ****\nX-Http-Method-Override: DELETE\n"},
		{"oauth2 fetches no token", "auth: {oauth2: {token_url: 'http://127.0.0.1:1/token', client_id: a, client_secret: '${TOKEN}'}}", "",
			"GET URL/api\nAccept: application/json\nAuthorization: Bearer ****\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := withBackend(srv.URL+"/api", tt.auth+"\nheaders: {Accept: application/json}\n",
				tool("- {name: id}\n- {name: text}", tt.handler))
			s := buildEnv(t, cfg, map[string]string{"TOKEN": "tok-secret-42", "NOTE": "note-not-secret-43"})
			got, err := s.DryRun(context.Background(), "t", []byte(`{"id": "a/b", "text": "hi"}`))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(strings.ReplaceAll(tt.want, "URL", srv.URL), got); diff != "" {
				t.Errorf("dry run (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDryRunShowsWhereItGoes: a base URL built from environment values
// (a scheme, a host) is shown, while a credential header is masked. Every
// environment value used to be masked: "POST ****://****/api/...".
func TestDryRunShowsWhereItGoes(t *testing.T) {
	t.Parallel()
	cfg := `version: 1
backends:
  api:
    kind: http
    base_url: ${SCHEME}://${HOST}/api
    headers: {X-Api-Key: "${CRM_ACCESS}", X-Tenant: "${TENANT}"}
tools:
` + tool("- {name: id}", "method: POST\npath: /tickets/${{ args.id }}")
	s := buildEnv(t, cfg, map[string]string{"SCHEME": "https", "HOST": "crm.example.com",
		"CRM_ACCESS": "access-value-77", "TENANT": "acme-corp"})
	got, err := s.DryRun(context.Background(), "t", []byte(`{"id": "7"}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "POST https://crm.example.com/api/tickets/7\nX-Api-Key: ****\nX-Tenant: acme-corp\n"
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("dry run (-want +got):\n%s", diff)
	}
}

// TestOptionalURLPart: ${NAME:+text} puts text in the URL only when NAME
// is set and not empty, such as a guest space's path prefix.
func TestOptionalURLPart(t *testing.T) {
	t.Parallel()
	cfg := `version: 1
backends:
  wiki:
    kind: http
    base_url: https://wiki.example.com${WIKI_SPACE:+/spaces/${WIKI_SPACE}}/rest
tools:
  - name: t
    description: test tool
    handler: {backend: wiki, path: /pages}
`
	for space, want := range map[string]string{"": "GET https://wiki.example.com/rest/pages\n",
		"guests": "GET https://wiki.example.com/spaces/guests/rest/pages\n"} {
		s := buildEnv(t, cfg, map[string]string{"WIKI_SPACE": space})
		got, err := s.DryRun(context.Background(), "t", []byte(`{}`))
		if err != nil || got != want {
			t.Errorf("WIKI_SPACE=%q: dry run %q, %v; want %q", space, got, err, want)
		}
	}
	s := buildEnv(t, cfg, map[string]string{}) // unset is fine too
	if got, _ := s.DryRun(context.Background(), "t", []byte(`{}`)); got != "GET https://wiki.example.com/rest/pages\n" {
		t.Errorf("WIKI_SPACE unset: dry run %q", got)
	}
}
