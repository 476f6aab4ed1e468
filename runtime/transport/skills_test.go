package transport_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/transport"
)

// skillsAuthConfig adds to authConfig a skill using the public tool and
// one using the admin tool.
const skillsAuthConfig = `
skills:
  - {name: greeting, description: Echo a greeting., instructions: Call echo., tools: [echo]}
  - {name: purging, description: Purge it all., instructions: Call purge., tools: [purge], resources: [docs://admin]}
`

// skillPost sends one JSON-RPC request to url over HTTP, at 2026-07-28 (with
// _meta and the standard headers) or at 2025-11-25 on session, and
// returns the result, or the error, and the session id answered.
func skillPost(t *testing.T, url, token, version, session, method string, params map[string]any) (result, rpcErr map[string]any, sid string) {
	t.Helper()
	if params == nil {
		params = map[string]any{}
	}
	if version == "2026-07-28" {
		params["_meta"] = map[string]any{"io.modelcontextprotocol/protocolVersion": version,
			"io.modelcontextprotocol/clientCapabilities": map[string]any{}}
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	req, _ := http.NewRequest(http.MethodPost, url+transport.MCPPath, strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if method != "initialize" {
		req.Header.Set("Mcp-Protocol-Version", version)
	}
	if version == "2026-07-28" {
		req.Header.Set("Mcp-Method", method)
		if uri, ok := params["uri"].(string); ok && method == "resources/read" {
			req.Header.Set("Mcp-Name", uri)
		}
	}
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := testClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	text := string(raw)
	if i := strings.LastIndex(text, "data: "); i >= 0 { // an SSE stream: its last event is the response
		text = strings.TrimSpace(text[i+len("data: "):])
	}
	var msg struct {
		Result map[string]any `json:"result"`
		Error  map[string]any `json:"error"`
	}
	if err := json.Unmarshal([]byte(text), &msg); err != nil && resp.StatusCode >= 400 {
		return nil, map[string]any{"httpStatus": resp.StatusCode}, "" // refused before JSON-RPC (a scope challenge)
	} else if err != nil {
		t.Fatalf("%s: HTTP %d %q", method, resp.StatusCode, raw)
	}
	return msg.Result, msg.Error, resp.Header.Get("Mcp-Session-Id")
}

// TestSkillsDoNotLeak: a caller sees a skill, its SKILL.md and its
// directory only if it may use everything the skill names; a skill naming
// an admin tool is invisible to a reader, in lists and when asked for.
func TestSkillsDoNotLeak(t *testing.T) {
	a := serveAuthWith(t, skillsAuthConfig)
	reader, admin := a.token(t, "tools:read"), a.token(t, "tools:read admin")
	const v = "2026-07-28"
	list := func(token string) string {
		res, e, _ := skillPost(t, a.url, token, v, "", "skills/list", nil)
		if e != nil {
			t.Fatalf("skills/list: %v", e)
		}
		var uris []string
		for _, s := range res["skills"].([]any) {
			uris = append(uris, s.(map[string]any)["uri"].(string))
		}
		if res["cacheScope"] != "private" {
			t.Errorf("skills/list for a caller has cacheScope %v", res["cacheScope"])
		}
		return strings.Join(uris, " ")
	}
	if got := list(reader); got != "skill://greeting/SKILL.md" {
		t.Errorf("reader's skills: %q", got)
	}
	if got := list(admin); got != "skill://greeting/SKILL.md skill://purging/SKILL.md" {
		t.Errorf("admin's skills: %q", got)
	}
	for _, m := range []struct {
		method string
		params map[string]any
	}{
		{"skills/get", map[string]any{"uri": "skill://purging/SKILL.md"}},
		{"resources/read", map[string]any{"uri": "skill://purging/SKILL.md"}},
		{"resources/directory/read", map[string]any{"uri": "skill://purging"}},
	} {
		if res, e, _ := skillPost(t, a.url, reader, v, "", m.method, m.params); e == nil || strings.Contains(jsonText(res), "Call purge") {
			t.Errorf("reader: %s %v = %v, %v; want an error", m.method, m.params, res, e)
		}
		if _, e, _ := skillPost(t, a.url, admin, v, "", m.method, m.params); e != nil {
			t.Errorf("admin: %s: %v", m.method, e)
		}
	}
	res, _, _ := skillPost(t, a.url, reader, v, "", "resources/list", nil)
	if got := jsonText(res); strings.Contains(got, "skill://purging") || !strings.Contains(got, "skill://greeting/SKILL.md") {
		t.Errorf("reader's resources/list: %s", got)
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestSkillsBothErasAndModes: the skills extension is declared and served
// to a 2025-11-25 client (initialize, then a session when there are
// sessions) and to a 2026-07-28 client (server/discover), with sessions
// and --stateless.
func TestSkillsBothErasAndModes(t *testing.T) {
	const cfg = `version: 1
tools: [{name: echo, description: Echoes., content: [{text: hi}]}]
skills: [{name: greeting, description: Greet., instructions: Call echo., tools: [echo]}]
`
	for _, stateless := range []bool{false, true} {
		_, url, _ := serve(t, nil, cfg, nil, transport.HTTPOptions{Stateless: stateless})
		init, e, sid := skillPost(t, url, "", "2025-11-25", "", "initialize", map[string]any{"protocolVersion": "2025-11-25",
			"capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "t", "version": "1"}})
		if e != nil || !strings.Contains(jsonText(init["capabilities"]), `"io.modelcontextprotocol/skills":{"directoryRead":true}`) {
			t.Errorf("stateless=%v: initialize = %v, %v", stateless, init, e)
		}
		if (sid == "") != stateless {
			t.Errorf("stateless=%v: session id %q", stateless, sid)
		}
		if res, e, _ := skillPost(t, url, "", "2025-11-25", sid, "skills/list", nil); e != nil || !strings.Contains(jsonText(res), "skill://greeting/SKILL.md") {
			t.Errorf("stateless=%v: 2025-11-25 skills/list = %v, %v", stateless, res, e)
		}
		disc, e, _ := skillPost(t, url, "", "2026-07-28", "", "server/discover", nil)
		if e != nil || !strings.Contains(jsonText(disc["capabilities"]), `"io.modelcontextprotocol/skills":{"directoryRead":true}`) {
			t.Errorf("stateless=%v: server/discover = %v, %v", stateless, disc, e)
		}
		res, e, _ := skillPost(t, url, "", "2026-07-28", "", "skills/get", map[string]any{"uri": "skill://greeting/SKILL.md"})
		if e != nil || res["resultType"] != "complete" || res["ttlMs"] == nil || res["cacheScope"] == nil {
			t.Errorf("stateless=%v: 2026-07-28 skills/get = %v, %v", stateless, res, e)
		}
	}
}
