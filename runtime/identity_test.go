package runtime

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime/auth"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
)

const identityConfig = `version: 1
server:
  http:
    auth:
      api_keys: [{name: t, key: test-key-0123456789}]
      claims: {email: string, groups: array, level: integer}
tools:
  - name: whoami
    description: Says who calls.
    handler:
      kind: echo
      result: ${{ auth.subject + " <" + auth.claims.email + "> " + join(auth.scopes, ",") }}
  - name: my_orders
    description: Lists the caller's orders.
    args:
      - {name: status, required: true}
      - {name: owner, from: auth.subject, required: true}
      - {name: email, from: "${{ auth.claims.email }}"}
      - {name: level, type: integer, from: auth.claims.level}
    handler:
      kind: echo
      result: ${{ args }}
  - name: plain
    description: Does not read auth.
    handler:
      kind: echo
      result: ok
`

var alice = auth.NewCaller(auth.Caller{Subject: "alice", ClientID: "cli", Scopes: []string{"orders:read", "tools:read"},
	Claims: map[string]any{"email": "alice@example.com", "groups": []any{"ops"}, "level": 3.0, "sub": "alice"}}, "RAW-TOKEN")

func callAs(t *testing.T, srv *Server, c *auth.Caller, tool, args string) *mcp.CallToolResult {
	t.Helper()
	ctx := context.Background()
	if c != nil {
		ctx = auth.WithCaller(ctx, c)
	}
	res, err := srv.CallTool(ctx, tool, []byte(args), nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestAuthInExpressions(t *testing.T) {
	srv := mustCompile(t, identityConfig, nil)
	res := callAs(t, srv, alice, "whoami", `{}`)
	if res.IsError || textOf(res.Content) != "alice <alice@example.com> orders:read,tools:read" {
		t.Errorf("whoami = %v %q", res.IsError, textOf(res.Content))
	}
	if strings.Contains(textOf(res.Content), "RAW-TOKEN") {
		t.Error("the caller's token reached a result")
	}
}

// TestAuthWithoutCaller: a tool reading auth refuses calls nobody
// authenticated (stdio, `mcpgen call`), before its handler runs; other
// tools are unaffected.
func TestAuthWithoutCaller(t *testing.T) {
	srv, calls := countingServer(t, identityConfig)
	for tool, args := range map[string]string{"whoami": `{}`, "my_orders": `{"status":"open"}`} {
		res := callAs(t, srv, nil, tool, args)
		if !res.IsError || textOf(res.Content) != errNoCaller {
			t.Errorf("%s without a caller = %v %q", tool, res.IsError, textOf(res.Content))
		}
	}
	if calls.Load() != 0 {
		t.Errorf("%d handler calls without a caller, want 0", calls.Load())
	}
	if res := callAs(t, srv, nil, "plain", `{}`); res.IsError {
		t.Errorf("plain = %q", textOf(res.Content))
	}
}

func TestBoundArgs(t *testing.T) {
	srv := mustCompile(t, identityConfig, nil)
	res := callAs(t, srv, alice, "my_orders", `{"status":"open"}`)
	want := map[string]any{"status": "open", "owner": "alice", "email": "alice@example.com", "level": int64(3)}
	if diff := cmp.Diff(want, res.StructuredContent); diff != "" {
		t.Errorf("bound args (-want +got):\n%s", diff)
	}

	// optional bound arguments the token does not provide are left out;
	// a declared claim of another type counts as absent
	bob := auth.NewCaller(auth.Caller{Subject: "bob", Claims: map[string]any{"level": "high"}}, "")
	res = callAs(t, srv, bob, "my_orders", `{"status":"open"}`)
	if diff := cmp.Diff(map[string]any{"status": "open", "owner": "bob"}, res.StructuredContent); diff != "" {
		t.Errorf("bound args of a sparse token (-want +got):\n%s", diff)
	}

	// a required bound argument the token does not provide refuses the call
	anon := auth.NewCaller(auth.Caller{}, "")
	res = callAs(t, srv, anon, "my_orders", `{"status":"open"}`)
	if !res.IsError || !strings.Contains(textOf(res.Content), "argument owner: the caller's identity does not provide it") {
		t.Errorf("no subject = %v %q", res.IsError, textOf(res.Content))
	}
}

// TestBoundArgsHidden: a bound argument is not in the input schema, and a
// client that passes it anyway over MCP is refused before anything runs.
func TestBoundArgsHidden(t *testing.T) {
	srv, calls := countingServer(t, identityConfig)
	cs := sessionAs(t, srv, alice)
	ctx := context.Background()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range list.Tools {
		if tl.Name != "my_orders" {
			continue
		}
		schema, _ := json.Marshal(tl.InputSchema)
		want := `{"additionalProperties":false,"properties":{"status":{"type":"string"}},"required":["status"],"type":"object"}`
		if string(schema) != want {
			t.Errorf("input schema = %s, want %s", schema, want)
		}
	}
	for _, args := range []map[string]any{
		{"status": "open", "owner": "mallory"},
		{"status": "open", "email": "mallory@example.com"},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "my_orders", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		if !res.IsError || !strings.Contains(textOf(res.Content), "is set by the server from the caller's identity and cannot be passed") {
			t.Errorf("passing %v = %v %q", args, res.IsError, textOf(res.Content))
		}
	}
	if calls.Load() != 0 {
		t.Errorf("%d handler calls, want 0", calls.Load())
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "my_orders", Arguments: map[string]any{"status": "open"}})
	if err != nil || res.IsError {
		t.Fatalf("my_orders = %v %v", res, err)
	}
	if got := res.StructuredContent.(map[string]any)["owner"]; got != "alice" {
		t.Errorf("owner over MCP = %v, want alice", got)
	}
}

// countingServer compiles config with handlers counting their calls.
func countingServer(t *testing.T, config string) (*Server, *atomic.Int64) {
	t.Helper()
	calls := new(atomic.Int64)
	dir := writeFiles(t, map[string]string{"mcpgen.yaml": config})
	srv, ds := Compile([]string{dir + "/mcpgen.yaml"}, load.Options{LookupEnv: envMap(nil)}, BuildOptions{Registry: testRegistry(calls)})
	if ds.Errors() > 0 {
		t.Fatal(ds)
	}
	t.Cleanup(func() { srv.Close() })
	return srv, calls
}

// sessionAs connects a go-sdk client to srv over in-memory transports, as
// caller c: the server session's context carries c.
func sessionAs(t testing.TB, srv *Server, c *auth.Caller) *mcp.ClientSession {
	t.Helper()
	ctx := auth.WithCaller(context.Background(), c)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestAuthDiagnostics(t *testing.T) {
	for _, tt := range []struct{ name, config, want string }{
		{"no auth configured", `version: 1
tools:
  - name: t
    description: d
    handler: {kind: echo, result: "${{ auth.subject }}"}
`, "mcpgen.yaml:5:35: tools[0].handler.result: `auth` is the authenticated caller, and server.http.auth is not configured; configure server.http.auth; over stdio nobody authenticates"},
		{"bound without auth configured", `version: 1
tools:
  - name: t
    description: d
    args: [{name: owner, from: auth.subject}]
    handler: {kind: echo, result: "${{ args.owner }}"}
`, "mcpgen.yaml:5:32: tools[0].args[0].from: `auth` is the authenticated caller"},
		{"claims alone authenticate nobody", `version: 1
server: {http: {auth: {claims: {email: string}}}}
tools:
  - name: t
    description: d
    handler: {kind: echo, result: "${{ auth.claims.email }}"}
`, "server.http.auth: auth needs oauth or api_keys"},
		{"typed claim", `version: 1
server: {http: {auth: {api_keys: [{name: t, key: test-key-0123456789}], claims: {email: string}}}}
tools:
  - name: t
    description: d
    handler: {kind: echo, result: "${{ auth.claims.email * 2 }}"}
`, "tools[0].handler.result: expr: invalid operation: * (mismatched types string and int)"},
		{"unknown field", `version: 1
server: {http: {auth: {api_keys: [{name: t, key: test-key-0123456789}]}}}
tools:
  - name: t
    description: d
    handler: {kind: echo, result: "${{ auth.subjet }}"}
`, `expr: unknown field subjet; did you mean "subject"?`},
		{"no token", `version: 1
server: {http: {auth: {api_keys: [{name: t, key: test-key-0123456789}]}}}
tools:
  - name: t
    description: d
    handler: {kind: echo, result: "${{ auth.token }}"}
`, `expr: unknown field token`},
		{"from reads args", `version: 1
server: {http: {auth: {api_keys: [{name: t, key: test-key-0123456789}]}}}
tools:
  - name: t
    description: d
    args: [{name: owner, from: args.x}]
    handler: {kind: echo, result: "${{ args.owner }}"}
`, `tools[0].args[0].from: expr: unknown name args`},
		{"constraint on a bound arg", `version: 1
server: {http: {auth: {api_keys: [{name: t, key: test-key-0123456789}]}}}
tools:
  - name: t
    description: d
    args: [{name: owner, from: auth.subject, default: x}]
    handler: {kind: echo, result: "${{ args.owner }}"}
`, `tools[0].args[0].default: default does not apply to an argument bound with from`},
		{"unknown claim type", `version: 1
server: {http: {auth: {api_keys: [{name: t, key: test-key-0123456789}], claims: {email: text}}}}
`, `server.http.auth.claims.email: unknown claim type "text"; use one of string, number, integer, boolean, array or object`},
		{"auth in a resource", `version: 1
server: {http: {auth: {api_keys: [{name: t, key: test-key-0123456789}]}}}
resources:
  - uri: docs://me
    name: me
    handler: {kind: echo, result: "${{ auth.subject }}"}
`, `expr: unknown name auth`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, ds := compileText(t, tt.config, nil)
			wantDiag(t, ds, tt.want)
		})
	}
}
