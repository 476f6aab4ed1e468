package transport_test

import (
	"bufio"
	"bytes"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/runtime/transport"
)

// rpcErr is a JSON-RPC error as it came over the wire.
type rpcErr struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

// httpRPC speaks raw JSON-RPC over Streamable HTTP, with a session when it
// initializes: the go-sdk client has no tasks.
type httpRPC struct {
	t       *testing.T
	url     string
	token   string
	session string
	id      atomic.Int64
}

// post sends one request and returns its response's result or error.
func (c *httpRPC) post(method string, params any) (map[string]any, *rpcErr) {
	c.t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.id.Add(1), "method": method, "params": params})
	req, _ := http.NewRequest("POST", c.url+transport.MCPPath, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	if c.session != "" {
		req.Header.Set("Mcp-Session-Id", c.session)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := testClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
		c.session = id
	}
	var msg struct {
		Result map[string]any `json:"result"`
		Error  *rpcErr        `json:"error"`
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimPrefix(sc.Text(), "data: ")
		if !strings.HasPrefix(line, "{") || !strings.Contains(line, `"id"`) {
			continue
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			c.t.Fatal(err)
		}
		return msg.Result, msg.Error
	}
	c.t.Fatalf("%s: no response (HTTP %d)", method, resp.StatusCode)
	return nil, nil
}

func (c *httpRPC) must(method string, params any) map[string]any {
	c.t.Helper()
	res, err := c.post(method, params)
	if err != nil {
		c.t.Fatalf("%s: %s (%d)", method, err.Message, err.Code)
	}
	return res
}

func (c *httpRPC) initialize() *httpRPC {
	c.t.Helper()
	c.must("initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "raw", "version": "1"}})
	c.notify("notifications/initialized")
	return c
}

// notify sends a notification, answered with 202 and no body.
func (c *httpRPC) notify(method string) {
	c.t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method})
	req, _ := http.NewRequest("POST", c.url+transport.MCPPath, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", c.session)
	resp, err := testClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		c.t.Fatalf("%s: HTTP %d", method, resp.StatusCode)
	}
}

// startTask calls a tool as a task and returns the task's id.
func (c *httpRPC) startTask(name string, args map[string]any) string {
	c.t.Helper()
	res := c.must("tools/call", map[string]any{"name": name, "arguments": args, "task": map[string]any{}})
	return res["task"].(map[string]any)["taskId"].(string)
}

// eventually waits for cond, failing the test after a minute: a bound on a
// hung test, not a timing assertion.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited a minute for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// alive reports whether process pid runs (a zombie does not).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true // no /proc: kill(0) said it exists
	}
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	return len(fields) == 0 || fields[0] != "Z"
}

const shellTaskConfig = `
version: 1
tools:
  - name: long_job
    description: Runs for a long time.
    task: optional
    args: [{name: pidfile, required: true}]
    handler:
      kind: shell
      # the pid as this host sees it: $$ may be 1, in a PID namespace
      script: |
        read -r pid rest < /proc/self/stat
        echo "$pid" > "$1"
        exec sleep 300
      params: ["${{ args.pidfile }}"]
      timeout: 10m
`

// TestTaskCancelStopsProcess: over HTTP sessions, a task's id is useless to
// another session (not found, not listed, not cancellable); tasks/cancel by
// its own session kills the task's process.
func TestTaskCancelStopsProcess(t *testing.T) {
	t.Parallel()
	_, url, _ := serve(t, builtin.Registry(), shellTaskConfig, nil, transport.HTTPOptions{})
	owner := (&httpRPC{t: t, url: url}).initialize()
	other := (&httpRPC{t: t, url: url}).initialize()
	pidfile := filepath.Join(t.TempDir(), "pid")
	id := owner.startTask("long_job", map[string]any{"pidfile": pidfile})
	var pid int
	eventually(t, "the job to start", func() bool {
		b, _ := os.ReadFile(pidfile)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		return pid > 0
	})
	for _, method := range []string{"tasks/get", "tasks/cancel", "tasks/result"} {
		if _, err := other.post(method, map[string]any{"taskId": id}); err == nil || err.Code != -32602 {
			t.Errorf("another session's %s: %v; want -32602", method, err)
		}
	}
	if l := other.must("tasks/list", map[string]any{}); len(l["tasks"].([]any)) != 0 {
		t.Errorf("another session lists %v", l["tasks"])
	}
	if !alive(pid) {
		t.Fatal("the job died before it was cancelled")
	}
	if got := owner.must("tasks/cancel", map[string]any{"taskId": id}); got["status"] != "cancelled" {
		t.Errorf("tasks/cancel = %v", got)
	}
	eventually(t, "the job's process to end", func() bool { return !alive(pid) })
	if got := owner.must("tasks/get", map[string]any{"taskId": id}); got["status"] != "cancelled" {
		t.Errorf("after the process ended, the task is %v", got["status"])
	}
}

// TestTaskBoundToSubject: with authentication, a task belongs to the
// subject, whichever session or request asks; another subject cannot see
// it. Stateless: no session holds it.
func TestTaskBoundToSubject(t *testing.T) {
	t.Parallel()
	config := `
version: 1
server:
  http:
    auth:
      resource: ` + authResource + `
      api_keys:
        - {name: ann, key: ann-key-0123456789abcdef}
        - {name: bob, key: bob-key-0123456789abcdef}
tools:
  - name: greet
    description: Greets.
    task: required
    content: [{text: hello}]
`
	_, url, _ := serve(t, builtin.Registry(), config, nil, transport.HTTPOptions{Stateless: true})
	ann := &httpRPC{t: t, url: url, token: "ann-key-0123456789abcdef"}
	id := ann.startTask("greet", nil)
	res := (&httpRPC{t: t, url: url, token: "ann-key-0123456789abcdef"}).must("tasks/result", map[string]any{"taskId": id})
	if res["content"] == nil {
		t.Errorf("ann's tasks/result from another request = %v", res)
	}
	bob := &httpRPC{t: t, url: url, token: "bob-key-0123456789abcdef"}
	if _, err := bob.post("tasks/get", map[string]any{"taskId": id}); err == nil || err.Code != -32602 {
		t.Errorf("bob gets ann's task: %v; want -32602", err)
	}
	if l := bob.must("tasks/list", map[string]any{}); len(l["tasks"].([]any)) != 0 {
		t.Errorf("bob lists %v", l["tasks"])
	}
}

// TestTaskCancelStopsQuery: cancelling a task stops its statement on
// PostgreSQL (pg_stat_activity shows it no more).
func TestTaskCancelStopsQuery(t *testing.T) {
	t.Parallel()
	dsn := os.Getenv("MCPGEN_TEST_POSTGRES_DSN")
	if dsn == "" {
		t.Skip("MCPGEN_TEST_POSTGRES_DSN is not set")
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	marker := fmt.Sprintf("mcpgen-task-%d", time.Now().UnixNano())
	config := fmt.Sprintf(`
version: 1
backends:
  pg: {kind: sql, driver: postgres, dsn: %q}
tools:
  - name: slow_report
    description: A slow query.
    task: required
    handler:
      backend: pg
      query: "SELECT pg_sleep(300), '%s' AS marker"
      timeout: 10m
`, dsn, marker)
	running := func() bool {
		var n int
		err := db.QueryRow(`SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query LIKE '%' || $1 || '%' AND pid <> pg_backend_pid()`, marker).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		return n > 0
	}
	_, url, _ := serve(t, builtin.Registry(), config, nil, transport.HTTPOptions{})
	c := (&httpRPC{t: t, url: url}).initialize()
	id := c.startTask("slow_report", nil)
	eventually(t, "the query to start", running)
	c.must("tasks/cancel", map[string]any{"taskId": id})
	eventually(t, "the query to stop", func() bool { return !running() })
}

// TestTaskNameHeader: at 2026-07-28, tasks/get, tasks/update and
// tasks/cancel carry the task id in Mcp-Name; another value is refused
// with 400 and -32020 before anything runs.
func TestTaskNameHeader(t *testing.T) {
	t.Parallel()
	_, url, _ := serve(t, builtin.Registry(), shellTaskConfig, nil, transport.HTTPOptions{Stateless: true})
	meta := map[string]any{"io.modelcontextprotocol/protocolVersion": "2026-07-28",
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "raw", "version": "1"},
		"io.modelcontextprotocol/clientCapabilities": map[string]any{"extensions": map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}}}}
	for _, tt := range []struct {
		name, header, want string
	}{
		{"matching", "T1", "Task not found"}, // it reached tasks/get
		{"mismatched", "T2", "-32020"},
		{"missing", "", "-32020"},
	} {
		body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tasks/get",
			"params": map[string]any{"taskId": "T1", "_meta": meta}})
		req, _ := http.NewRequest("POST", url+transport.MCPPath, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tasks/get")
		if tt.header != "" {
			req.Header.Set("Mcp-Name", tt.header)
		}
		resp, err := testClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		_, _ = b.ReadFrom(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(b.String(), tt.want) {
			t.Errorf("%s Mcp-Name: HTTP %d %s; want 400 and %q", tt.name, resp.StatusCode, b.String(), tt.want)
		}
	}
}
