package httpkind_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestAuth(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, auth string
		header     string // header checked
		want       string // its value
		query      string // or the query
	}{
		{"bearer", "bearer: tok-123456", "Authorization", "Bearer tok-123456", ""},
		{"basic", "basic: {username: ann, password: pw-123456}", "Authorization", "Basic YW5uOnB3LTEyMzQ1Ng==", ""},
		{"api key header", "api_key: {header: X-API-Key, value: key-123456}", "X-Api-Key", "key-123456", ""},
		{"api key query", "api_key: {query: api_key, value: key-123456}", "", "", "api_key=key-123456&q=x"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newRecorder(t, jsonReply(200, map[string]any{}))
			s := build(t, withBackend(srv.URL, "auth:\n  "+tt.auth+"\n", tool("", "query: {q: x}")))
			mustSucceed(t, call(t, s, "t", `{}`))
			got := srv.last(t)
			if tt.header != "" && got.Header.Get(tt.header) != tt.want {
				t.Errorf("%s = %q, want %q", tt.header, got.Header.Get(tt.header), tt.want)
			}
			if tt.query != "" && got.RawQuery != tt.query {
				t.Errorf("query = %q, want %q", got.RawQuery, tt.query)
			}
		})
	}
}

// tokenServer issues tokens tok-1, tok-2, ... valid for ttl seconds (0 for
// no expires_in) to client "cid" with secret "csecret-1234".
func tokenServer(t *testing.T, ttl int) (*recorder, *atomic.Int64) {
	var issued atomic.Int64
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		id, secret, _ := r.BasicAuth()
		if id != "cid" || secret != "csecret-1234" || r.FormValue("grant_type") != "client_credentials" {
			jsonReply(401, map[string]any{"error": "invalid_client"})(w, r)
			return
		}
		n := issued.Add(1)
		reply := map[string]any{"access_token": fmt.Sprintf("tok-%d", n), "token_type": "Bearer"}
		if ttl > 0 {
			reply["expires_in"] = ttl
		}
		jsonReply(200, reply)(w, r)
	})
	return srv, &issued
}

func oauthConfig(tokenURL string) string {
	return "auth:\n  oauth2:\n    token_url: " + tokenURL + "\n    client_id: cid\n    client_secret: csecret-1234\n" +
		"    scopes: [tickets.read, tickets.write]\n    params: {audience: tracker}\n"
}

func TestOAuth2CachesTheToken(t *testing.T) {
	t.Parallel()
	tokens, issued := tokenServer(t, 3600)
	api := newRecorder(t, jsonReply(200, map[string]any{}))
	s := build(t, withBackend(api.URL, oauthConfig(tokens.URL), tool("", "")))
	for range 3 {
		mustSucceed(t, call(t, s, "t", `{}`))
	}
	if n := issued.Load(); n != 1 {
		t.Errorf("%d tokens fetched for 3 calls, want 1", n)
	}
	req := tokens.last(t)
	if diff := cmp.Diff("audience=tracker&grant_type=client_credentials&scope=tickets.read+tickets.write", req.Body); diff != "" {
		t.Errorf("token request (-want +got):\n%s", diff)
	}
	if got := api.last(t).Header.Get("Authorization"); got != "Bearer tok-1" {
		t.Errorf("Authorization = %q", got)
	}
}

func TestOAuth2RefreshesAnExpiredToken(t *testing.T) {
	t.Parallel()
	tokens, issued := tokenServer(t, 1) // renewed after half its life
	api := newRecorder(t, jsonReply(200, map[string]any{}))
	s := build(t, withBackend(api.URL, oauthConfig(tokens.URL), tool("", "")))
	mustSucceed(t, call(t, s, "t", `{}`))
	time.Sleep(600 * time.Millisecond)
	mustSucceed(t, call(t, s, "t", `{}`))
	if n := issued.Load(); n != 2 {
		t.Errorf("%d tokens fetched, want 2", n)
	}
	if got := api.last(t).Header.Get("Authorization"); got != "Bearer tok-2" {
		t.Errorf("Authorization = %q, want the new token", got)
	}
}

func TestOAuth2RefreshesARevokedToken(t *testing.T) {
	t.Parallel()
	tokens, issued := tokenServer(t, 0)
	api := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer tok-2" { // tok-1 is revoked
			jsonReply(401, map[string]any{"error": "invalid_token"})(w, r)
			return
		}
		jsonReply(200, map[string]any{"ok": true})(w, r)
	})
	s := build(t, withBackend(api.URL, oauthConfig(tokens.URL), tool("", "method: POST")))
	mustSucceed(t, call(t, s, "t", `{}`))
	if n := issued.Load(); n != 2 {
		t.Errorf("%d tokens fetched, want 2", n)
	}
}

func TestSecretsStayOutOfErrors(t *testing.T) {
	t.Parallel()
	tokens := newRecorder(t, jsonReply(500, map[string]any{"error": "boom"}))
	for _, tt := range []struct{ name, url, auth, secret string }{
		{"api key in the query of an unreachable host", "http://127.0.0.1:1", "auth:\n  api_key: {query: key, value: key-98765}\n", "key-98765"},
		{"oauth client secret", "http://127.0.0.1:1", oauthConfig(tokens.URL), "csecret-1234"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := build(t, withBackend(tt.url, tt.auth+"retries: {max: 0}\n", tool("", "")))
			got := mustFail(t, call(t, s, "t", `{}`))
			if strings.Contains(got, tt.secret) {
				t.Errorf("the error shows the secret: %q", got)
			}
		})
	}
}

func TestAuthConfigErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, auth, want string }{
		{"two kinds", "auth:\n  bearer: x\n  basic: {username: a}", "exactly one of bearer, basic, api_key, oauth2"},
		{"api key in both places", "auth:\n  api_key: {header: X-Key, query: key, value: v}", "api_key.query: give exactly one of header, query; found header and query"},
		{"bad token url", "auth:\n  oauth2: {token_url: 'ftp://x', client_id: a, client_secret: b}", "invalid token URL"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if ds := diagnose(t, withBackend("http://127.0.0.1:9", tt.auth+"\n", tool("", ""))); !strings.Contains(ds, tt.want) {
				t.Errorf("diagnostics %q do not mention %q", ds, tt.want)
			}
		})
	}
}

func TestConcurrentCalls(t *testing.T) {
	t.Parallel()
	tokens, issued := tokenServer(t, 3600)
	api := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		jsonReply(200, map[string]any{"q": r.URL.Query().Get("q"), "auth": r.Header.Get("Authorization")})(w, r)
	})
	s := build(t, withBackend(api.URL, oauthConfig(tokens.URL), tool("- {name: q}", "query: {q: '${{ args.q }}'}")))
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			q := fmt.Sprint(i)
			res := call(t, s, "t", `{"q": "`+q+`"}`)
			if got, want := structured(t, res.StructuredContent), `{"auth":"Bearer ****","q":"`+q+`"}`; got != want {
				t.Errorf("call %d: %s, want %s", i, got, want)
			}
		})
	}
	wg.Wait()
	if n := issued.Load(); n != 1 {
		t.Errorf("%d tokens fetched by 20 concurrent calls, want 1", n)
	}
}

func TestEchoedSecretsAreMasked(t *testing.T) {
	t.Parallel()
	api := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		jsonReply(200, map[string]any{"you_sent": r.Header.Get("Authorization"), "ok": true})(w, r)
	})
	s := buildEnv(t, withBackend(api.URL, "auth: {bearer: '${TOKEN}'}\n", tool("", "")), map[string]string{"TOKEN": "tok-echoed-77"})
	res := call(t, s, "t", `{}`)
	if got := mustSucceed(t, res); strings.Contains(got, "tok-echoed-77") {
		t.Errorf("the text shows the token: %s", got)
	}
	if got := structured(t, res.StructuredContent); got != `{"ok":true,"you_sent":"Bearer ****"}` {
		t.Errorf("structured content: %s", got)
	}
}
