package httpkind_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/handlers/handlertest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The callers of these tests and their raw tokens, which must never reach
// the API.
var (
	ann = auth.NewCaller(auth.Caller{Subject: "ann"}, "ANN-RAW-TOKEN")
	bob = auth.NewCaller(auth.Caller{Subject: "bob"}, "BOB-RAW-TOKEN")
)

// exchangeServer is an RFC 8693 token endpoint for client "rs": it issues
// x-SUBJECT-N for the subject tokens of ann and bob, and records each
// exchange. reply, when set, answers instead.
func exchangeServer(t *testing.T, reply http.HandlerFunc) (*recorder, *atomic.Int64) {
	var issued atomic.Int64
	owners := map[string]string{ann.Token(): "ann", bob.Token(): "bob"}
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		id, secret, _ := r.BasicAuth()
		switch {
		case id != "rs" || secret != "rs-secret-1234":
			jsonReply(401, map[string]any{"error": "invalid_client"})(w, r)
		case r.FormValue("grant_type") != "urn:ietf:params:oauth:grant-type:token-exchange",
			r.FormValue("subject_token_type") != "urn:ietf:params:oauth:token-type:access_token":
			jsonReply(400, map[string]any{"error": "unsupported_grant_type"})(w, r)
		case owners[r.FormValue("subject_token")] == "":
			jsonReply(400, map[string]any{"error": "invalid_grant", "error_description": "bad subject_token " + r.FormValue("subject_token")})(w, r)
		case reply != nil:
			reply(w, r)
		default:
			n := issued.Add(1)
			jsonReply(200, map[string]any{"access_token": fmt.Sprintf("x-%s-%d", owners[r.FormValue("subject_token")], n),
				"issued_token_type": "urn:ietf:params:oauth:token-type:access_token", "token_type": "Bearer", "expires_in": 300})(w, r)
		}
	})
	return srv, &issued
}

func exchangeConfig(tokenURL string) string {
	return "auth:\n  token_exchange:\n    token_url: " + tokenURL + "\n    client_id: rs\n    client_secret: rs-secret-1234\n" +
		"    audience: orders\n    resource: https://orders.example/api\n    scopes: [orders:read, orders:write]\n"
}

func callAs(t *testing.T, srv *runtime.Server, c *auth.Caller, tool string) *mcp.CallToolResult {
	t.Helper()
	ctx := context.Background()
	if c != nil {
		ctx = auth.WithCaller(ctx, c)
	}
	return handlertest.Call(t, ctx, srv, tool, `{}`)
}

// noRawToken fails if a raw caller token reached the API.
func noRawToken(t *testing.T, api *recorder) {
	t.Helper()
	for _, r := range api.requests() {
		for name, vs := range r.Header {
			for _, v := range vs {
				if strings.Contains(v, "RAW-TOKEN") {
					t.Errorf("the API received the caller's token in %s: %q", name, v)
				}
			}
		}
	}
}

func TestTokenExchange(t *testing.T) {
	t.Parallel()
	as, issued := exchangeServer(t, nil)
	api := newRecorder(t, jsonReply(200, map[string]any{}))
	s := build(t, withBackend(api.URL, exchangeConfig(as.URL), tool("", "")))
	for range 3 {
		mustSucceed(t, callAs(t, s, ann, "t"))
	}
	if got := api.last(t).Header.Get("Authorization"); got != "Bearer x-ann-1" {
		t.Errorf("Authorization = %q, want the exchanged token", got)
	}
	mustSucceed(t, callAs(t, s, bob, "t"))
	if got := api.last(t).Header.Get("Authorization"); got != "Bearer x-bob-2" {
		t.Errorf("bob's Authorization = %q, want his own exchanged token", got)
	}
	if n := issued.Load(); n != 2 {
		t.Errorf("%d exchanges for 3 calls of ann and 1 of bob, want 2 (cached per caller)", n)
	}
	form := as.last(t).Body
	for _, want := range []string{"audience=orders", "resource=https%3A%2F%2Forders.example%2Fapi", "scope=orders%3Aread+orders%3Awrite",
		"requested_token_type=urn%3Aietf%3Aparams%3Aoauth%3Atoken-type%3Aaccess_token", "subject_token=BOB-RAW-TOKEN"} {
		if !strings.Contains(form, want) {
			t.Errorf("exchange request %q lacks %q", form, want)
		}
	}
	noRawToken(t, api)
}

// TestTokenExchangeSingleFlight: concurrent calls of one caller share one
// exchange.
func TestTokenExchangeSingleFlight(t *testing.T) {
	t.Parallel()
	as, issued := exchangeServer(t, nil)
	api := newRecorder(t, jsonReply(200, map[string]any{}))
	s := build(t, withBackend(api.URL, exchangeConfig(as.URL), tool("", "")))
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() { mustSucceed(t, callAs(t, s, ann, "t")) })
	}
	wg.Wait()
	if n := issued.Load(); n != 1 {
		t.Errorf("%d exchanges for 16 concurrent calls, want 1", n)
	}
}

// TestTokenExchangeReauth: a 401 from the API drops the caller's cached
// token and exchanges again, once.
func TestTokenExchangeReauth(t *testing.T) {
	t.Parallel()
	as, issued := exchangeServer(t, nil)
	var refused atomic.Bool
	api := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "Bearer x-ann-1" && refused.CompareAndSwap(false, true) {
			jsonReply(401, map[string]any{"error": "revoked"})(w, r)
			return
		}
		jsonReply(200, map[string]any{})(w, r)
	})
	s := build(t, withBackend(api.URL, exchangeConfig(as.URL), tool("", "")))
	mustSucceed(t, callAs(t, s, ann, "t"))
	if n := issued.Load(); n != 2 {
		t.Errorf("%d exchanges, want 2", n)
	}
	if got := api.last(t).Header.Get("Authorization"); got != "Bearer x-ann-2" {
		t.Errorf("retried with %q, want the new token", got)
	}
}

func TestTokenExchangeErrors(t *testing.T) {
	t.Parallel()
	keyCaller := auth.NewCaller(auth.Caller{Subject: "key:ci", KeyName: "ci"}, "")
	stranger := auth.NewCaller(auth.Caller{Subject: "eve"}, "EVE-RAW-TOKEN")
	for _, tt := range []struct {
		name   string
		reply  http.HandlerFunc
		caller *auth.Caller
		want   string
	}{
		{"no caller", nil, nil, "token exchange acts for the authenticated caller, and the request has none"},
		{"API key caller", nil, keyCaller, "token exchange needs the caller's OAuth token"},
		{"refused subject", nil, stranger, "token exchange: HTTP 400 invalid_grant: bad subject_token ****"},
		{"no access token", jsonReply(200, map[string]any{"token_type": "Bearer"}), ann, "token exchange: the response holds no access_token"},
		{"not JSON", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "<html>") }, ann, "the response holds no access_token"},
		{"other token type", jsonReply(200, map[string]any{"access_token": "a", "issued_token_type": "urn:ietf:params:oauth:token-type:id_token"}),
			ann, "token exchange: issued a urn:ietf:params:oauth:token-type:id_token, not an access token"},
		{"not bearer", jsonReply(200, map[string]any{"access_token": "a", "token_type": "N_A"}), ann, `token_type "N_A" is not supported`},
		{"server error", jsonReply(503, map[string]any{}), ann, "token exchange: HTTP 503 (no OAuth error in the response)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			as, _ := exchangeServer(t, tt.reply)
			api := newRecorder(t, jsonReply(200, map[string]any{}))
			s := build(t, withBackend(api.URL, exchangeConfig(as.URL), tool("", "")))
			got := mustFail(t, callAs(t, s, tt.caller, "t"))
			if !strings.Contains(got, tt.want) {
				t.Errorf("error = %q, want %q", got, tt.want)
			}
			if strings.Contains(got, "RAW-TOKEN") || strings.Contains(got, "rs-secret") {
				t.Errorf("the error shows a credential: %q", got)
			}
			if n := len(api.requests()); n != 0 {
				t.Errorf("the API received %d requests, want 0", n)
			}
		})
	}
}

func TestTokenExchangeDiagnostics(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, auth, want string }{
		{"no audience", "auth:\n  token_exchange: {token_url: https://as.example/token, client_id: rs}\n",
			"backends.api.auth.token_exchange: give audience or resource: the token is for one backend, never for any"},
		{"bad url", "auth:\n  token_exchange: {token_url: ftp://as, client_id: rs, audience: a}\n",
			`backends.api.auth.token_exchange.token_url: invalid token URL "ftp://as"`},
		{"two kinds", "auth:\n  bearer: x\n  token_exchange: {token_url: https://as.example/token, client_id: rs, audience: a}\n",
			"give exactly one of bearer, basic, api_key, oauth2, token_exchange"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := diagnose(t, withBackend("https://api.example", tt.auth, tool("", "")))
			if !strings.Contains(got, tt.want) {
				t.Errorf("diagnostics:\n%s\nwant %q", got, tt.want)
			}
		})
	}
}

func TestForwardHeaders(t *testing.T) {
	t.Parallel()
	api := newRecorder(t, jsonReply(200, map[string]any{}))
	s := build(t, withBackend(api.URL, "forward_headers: [traceparent, x-tenant]\n",
		tool("", "forward_headers: [Accept-Language, X-Region]\nheaders: {X-Region: eu}\n")))
	in := http.Header{}
	for k, v := range map[string]string{"Traceparent": "00-abc-def-01", "X-Tenant": "acme", "Accept-Language": "fr",
		"X-Region": "us", "X-Other": "no", "Cookie": "session=1", "Authorization": "Bearer RAW-TOKEN"} {
		in.Set(k, v)
	}
	ctx := handlers.WithIncomingHeader(context.Background(), in)
	mustSucceed(t, handlertest.Call(t, ctx, s, "t", `{}`))
	got := map[string]string{}
	for _, k := range []string{"Traceparent", "X-Tenant", "Accept-Language", "X-Region", "X-Other", "Cookie", "Authorization"} {
		got[k] = api.last(t).Header.Get(k)
	}
	want := map[string]string{"Traceparent": "00-abc-def-01", "X-Tenant": "acme", "Accept-Language": "fr",
		"X-Region": "eu", "X-Other": "", "Cookie": "", "Authorization": ""}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("headers the API received (-want +got):\n%s", diff)
	}
	// without a client request (stdio) nothing is forwarded
	mustSucceed(t, call(t, s, "t", `{}`))
	if v := api.last(t).Header.Get("Traceparent"); v != "" {
		t.Errorf("forwarded %q with no client request", v)
	}
}

func TestForwardHeadersRefused(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ list, want string }{
		{"[Authorization]", "backends.api.forward_headers[0]: Authorization carries the client's credentials and is never forwarded"},
		{"[traceparent, cookie]", "backends.api.forward_headers[1]: Cookie carries the client's credentials"},
		{"[proxy-authorization]", "Proxy-Authorization carries the client's credentials"},
		{"[Mcp-Session-Id]", "Mcp-Session-Id belongs to the client's connection to mcpgen and cannot be forwarded"},
		{"[Host]", "Host belongs to the client's connection"},
		{`["bad name"]`, `invalid header name "bad name"`},
	} {
		got := diagnose(t, withBackend("https://api.example", "forward_headers: "+tt.list+"\n", tool("", "")))
		if !strings.Contains(got, tt.want) {
			t.Errorf("forward_headers: %s:\n%s\nwant %q", tt.list, got, tt.want)
		}
	}
	got := diagnose(t, withBackend("https://api.example", "", tool("", "forward_headers: [authorization]\n")))
	if !strings.Contains(got, "tools[0].handler.forward_headers[0]: Authorization carries the client's credentials") {
		t.Errorf("a tool's forward_headers: %s", got)
	}
}

// TestTokenExchangeMasked: an API that echoes the exchanged token does not
// show it to the model.
func TestTokenExchangeMasked(t *testing.T) {
	t.Parallel()
	as, _ := exchangeServer(t, nil)
	api := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		jsonReply(200, map[string]any{"you_sent": r.Header.Get("Authorization")})(w, r)
	})
	s := build(t, withBackend(api.URL, exchangeConfig(as.URL), tool("", "")))
	got := mustSucceed(t, callAs(t, s, ann, "t"))
	if strings.Contains(got, "x-ann-1") || !strings.Contains(got, "Bearer ****") {
		t.Errorf("result = %q, want the token masked", got)
	}
}
