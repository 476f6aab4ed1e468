package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/auth"
	sdkauth "github.com/mcpgen/mcpgen/runtime/internal/gosdk/auth"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

const searchConfig = `version: 1
server:
  tool_search: {enabled: true}
tools:
  - name: get_user
    description: Returns the user with this id, with their name and email.
    args:
      - {name: id, type: integer, required: true, minimum: 1, description: The user's id.}
    content: [{text: "user {{ .args.id }}"}]
  - name: delete_user
    description: Deletes the user with this id, for administrators.
    scopes: [admin]
    args:
      - {name: id, type: integer, required: true, description: The user's id.}
    content: [{text: "deleted {{ .args.id }}"}]
  - name: ping
    description: Answers pong, at most twice an hour.
    always: true
    rate_limit: {global: 2/h}
    content: [{text: pong}]
`

// searchChain is the server's whole middleware chain over a handler that
// fails: what the go-sdk would call for each request.
func searchChain(t *testing.T, config string) mcp.MethodHandler {
	t.Helper()
	srv := mustCompile(t, config, nil)
	t.Cleanup(func() { srv.Close() })
	return srv.wrap(func(context.Context, string, mcp.Request) (mcp.Result, error) {
		return nil, errors.New("reached the go-sdk")
	})
}

func asCaller(scopes ...string) *mcp.RequestExtra {
	c := &auth.Caller{Subject: "u", Scopes: scopes}
	return &mcp.RequestExtra{TokenInfo: &sdkauth.TokenInfo{Scopes: scopes, Extra: map[string]any{"mcpgen.caller": c}}}
}

func callVia(t *testing.T, h mcp.MethodHandler, extra *mcp.RequestExtra, name, args string) *mcp.CallToolResult {
	t.Helper()
	res, err := h(context.Background(), "tools/call", &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: name, Arguments: json.RawMessage(args)}, Extra: extra})
	if err != nil {
		t.Fatalf("%s %s: %v", name, args, err)
	}
	return res.(*mcp.CallToolResult)
}

// resultText is a result as the model reads it: whether it is an error, and
// its text.
func resultText(r *mcp.CallToolResult) string {
	s := ""
	for _, c := range r.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			s += tc.Text
		}
	}
	if r.IsError {
		return "error: " + s
	}
	return s
}

// TestToolSearchList: tools/list holds the three search tools and the tools
// marked always, and nothing else.
func TestToolSearchList(t *testing.T) {
	h := searchChain(t, searchConfig)
	res, err := h(context.Background(), "tools/list", &mcp.ListToolsRequest{Params: &mcp.ListToolsParams{}})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.(*mcp.ListToolsResult).Tools {
		names = append(names, tl.Name)
	}
	if got, want := strings.Join(names, " "), "search_tools describe_tools call_tool ping"; got != want {
		t.Errorf("tools/list = %s, want %s", got, want)
	}
}

// TestToolSearchFindsAndDescribes: search_tools ranks the tools for a
// task, hiding those the caller may not call; describe_tools gives the
// schemas.
func TestToolSearchFindsAndDescribes(t *testing.T) {
	h := searchChain(t, searchConfig)
	got := resultText(callVia(t, h, nil, "search_tools", `{"query":"remove a user","limit":1}`))
	if !strings.HasPrefix(got, "delete_user: ") {
		t.Errorf("search for removing a user = %q", got)
	}
	if got := resultText(callVia(t, h, asCaller("read"), "search_tools", `{"query":"remove a user"}`)); strings.Contains(got, "delete_user") {
		t.Errorf("a caller without the admin scope is shown delete_user: %q", got)
	}
	got = resultText(callVia(t, h, nil, "describe_tools", `{"names":["get_user"]}`))
	if !strings.Contains(got, `"inputSchema":{"type":"object"`) || !strings.Contains(got, `"minimum":1`) {
		t.Errorf("describe_tools = %s", got)
	}
	if got := resultText(callVia(t, h, nil, "describe_tools", `{"names":["nope"]}`)); !strings.HasPrefix(got, "error: no tool called nope") {
		t.Errorf("describe_tools of an unknown tool = %q", got)
	}
}

// TestToolSearchCallRefusedAsDirect: call_tool gives what the direct call
// gives, refusals included: a bad argument, a missing scope, a rate limit;
// and a tool can still be called by name.
func TestToolSearchCallRefusedAsDirect(t *testing.T) {
	through := func(name, args string) string { return `{"name":"` + name + `","arguments":` + args + `}` }
	for _, tt := range []struct {
		name, tool, args string
		extra            *mcp.RequestExtra
		want             string
	}{
		{"good", "get_user", `{"id":7}`, nil, "user 7"},
		{"bad argument", "get_user", `{"id":0}`, nil, "error: "},
		{"missing argument", "get_user", `{}`, nil, "error: "},
		{"missing scope", "delete_user", `{"id":7}`, asCaller("read"), `error: "delete_user" needs the scope(s) admin`},
		{"scope granted", "delete_user", `{"id":7}`, asCaller("admin"), "deleted 7"},
	} {
		h := searchChain(t, searchConfig)
		direct := resultText(callVia(t, h, tt.extra, tt.tool, tt.args))
		via := resultText(callVia(t, h, tt.extra, "call_tool", through(tt.tool, tt.args)))
		if direct != via || !strings.HasPrefix(direct, tt.want) {
			t.Errorf("%s: direct %q, through call_tool %q, want both to start %q", tt.name, direct, via, tt.want)
		}
	}
	// the rate limit counts calls either way: two allowed, the third refused
	h := searchChain(t, searchConfig)
	seq := []string{resultText(callVia(t, h, nil, "ping", `{}`)), resultText(callVia(t, h, nil, "call_tool", through("ping", `{}`))),
		resultText(callVia(t, h, nil, "call_tool", through("ping", `{}`))), resultText(callVia(t, h, nil, "ping", `{}`))}
	if seq[0] != "pong" || seq[1] != "pong" || !strings.HasPrefix(seq[2], "error: ") || seq[2] != seq[3] {
		t.Errorf("ping, call_tool ping ×2, ping = %q", seq)
	}
}
