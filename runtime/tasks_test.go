package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/taskwire"
)

// rpcClient speaks raw JSON-RPC to a server over in-memory transports: the
// go-sdk client has no tasks, and the wire shapes are what is tested.
type rpcClient struct {
	t      *testing.T
	conn   mcp.Connection
	mu     sync.Mutex
	id     int64
	waits  map[int64]chan *jsonrpc.Response
	notes  []*jsonrpc.Request
	asks   chan *jsonrpc.Request // server→client requests
	closed chan struct{}
}

// waitLimit bounds how long a test waits for an answer or a state before it
// calls the server hung: not a timing assertion.
const waitLimit = time.Minute

func rawSession(t *testing.T, srv *Server) *rpcClient {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := ct.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c := &rpcClient{t: t, conn: conn, waits: map[int64]chan *jsonrpc.Response{},
		asks: make(chan *jsonrpc.Request, 16), closed: make(chan struct{})}
	go c.read()
	t.Cleanup(func() { conn.Close(); ss.Close() })
	return c
}

func (c *rpcClient) read() {
	defer close(c.closed)
	for {
		msg, err := c.conn.Read(context.Background())
		if err != nil {
			return
		}
		switch m := msg.(type) {
		case *jsonrpc.Response:
			c.mu.Lock()
			ch := c.waits[m.ID.Raw().(int64)]
			c.mu.Unlock()
			if ch != nil {
				ch <- m
			}
		case *jsonrpc.Request:
			if m.IsCall() {
				c.asks <- m
				continue
			}
			c.mu.Lock()
			c.notes = append(c.notes, m)
			c.mu.Unlock()
		}
	}
}

// start sends a request and returns where its response arrives.
func (c *rpcClient) start(method string, params any) <-chan *jsonrpc.Response {
	c.t.Helper()
	c.mu.Lock()
	c.id++
	id := c.id
	ch := make(chan *jsonrpc.Response, 1)
	c.waits[id] = ch
	c.mu.Unlock()
	raw, err := json.Marshal(params)
	if err != nil {
		c.t.Fatal(err)
	}
	rid, _ := jsonrpc.MakeID(float64(id))
	if err := c.conn.Write(context.Background(), &jsonrpc.Request{ID: rid, Method: method, Params: raw}); err != nil {
		c.t.Fatal(err)
	}
	return ch
}

// call sends a request and returns its result, or its error.
func (c *rpcClient) call(method string, params any) (map[string]any, *jsonrpc.Error) {
	c.t.Helper()
	return c.await(c.start(method, params))
}

func (c *rpcClient) await(ch <-chan *jsonrpc.Response) (map[string]any, *jsonrpc.Error) {
	c.t.Helper()
	select {
	case r := <-ch:
		if r.Error != nil {
			var je *jsonrpc.Error
			if e, ok := r.Error.(*jsonrpc.Error); ok {
				je = e
			} else {
				je = &jsonrpc.Error{Message: r.Error.Error()}
			}
			return nil, je
		}
		var m map[string]any
		if err := json.Unmarshal(r.Result, &m); err != nil {
			c.t.Fatal(err)
		}
		return m, nil
	case <-time.After(waitLimit):
		c.t.Fatal("no response")
	}
	return nil, nil
}

// must is call failing the test on an error.
func (c *rpcClient) must(method string, params any) map[string]any {
	c.t.Helper()
	m, err := c.call(method, params)
	if err != nil {
		c.t.Fatalf("%s: %v (%d)", method, err.Message, err.Code)
	}
	return m
}

func (c *rpcClient) notify(method string, params any) {
	raw, _ := json.Marshal(params)
	if err := c.conn.Write(context.Background(), &jsonrpc.Request{Method: method, Params: raw}); err != nil {
		c.t.Fatal(err)
	}
}

// answer replies to a server→client request.
func (c *rpcClient) answer(req *jsonrpc.Request, result any) {
	raw, _ := json.Marshal(result)
	if err := c.conn.Write(context.Background(), &jsonrpc.Response{ID: req.ID, Result: raw}); err != nil {
		c.t.Fatal(err)
	}
}

// initialize opens a 2025-11-25 session with these client capabilities.
func (c *rpcClient) initialize(caps map[string]any) map[string]any {
	c.t.Helper()
	res := c.must("initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": caps,
		"clientInfo": map[string]any{"name": "raw", "version": "1"}})
	c.notify("notifications/initialized", map[string]any{})
	return res
}

// notifications returns the notifications of method received so far.
func (c *rpcClient) notifications(method string) []map[string]any {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []map[string]any
	for _, n := range c.notes {
		if n.Method == method {
			var m map[string]any
			_ = json.Unmarshal(n.Params, &m)
			out = append(out, m)
		}
	}
	return out
}

// meta2026 is the _meta of a 2026-07-28 request; tasks adds the extension.
func meta2026(tasks bool) map[string]any {
	caps := map[string]any{"elicitation": map[string]any{}, "sampling": map[string]any{}}
	if tasks {
		caps["extensions"] = map[string]any{taskwire.Extension: map[string]any{}}
	}
	return map[string]any{mcp.MetaKeyProtocolVersion: "2026-07-28", mcp.MetaKeyClientCapabilities: caps,
		mcp.MetaKeyClientInfo: map[string]any{"name": "raw", "version": "1"}}
}

// pollUntil polls tasks/get until the task's status is one of want.
func (c *rpcClient) pollUntil(id string, meta map[string]any, want ...string) map[string]any {
	c.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		params := map[string]any{"taskId": id}
		if meta != nil {
			params["_meta"] = meta
		}
		got := c.must("tasks/get", params)
		for _, w := range want {
			if got["status"] == w {
				return got
			}
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("task %s stays %v, want %v", id, got["status"], want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

const tasksConfig = `version: 1
server:
  tasks: {ttl: 10m, poll_interval: 250ms, max_per_caller: 3}
tools:
  - name: greet
    description: Greets.
    task: optional
    args: [{name: name}]
    content: [{text: "Hello, {{ .args.name }}!"}]
  - name: slow
    description: Sleeps.
    task: required
    steps: [{sleep: 10m}]
    content: [{text: never}]
  - name: failing
    description: Fails.
    task: optional
    error: true
    content: [{text: "it broke"}]
  - name: plain
    description: Not a task.
    content: [{text: plain}]
  - name: confirm_delete
    description: Asks first.
    task: optional
    steps:
      - elicit: {message: "Delete it?", schema: {type: object, properties: {ok: {type: boolean}}}, as: answer}
    content: [{text: "deleted: {{ .steps.answer.content.ok }}"}]
`

// TestTasks2025Lifecycle: a task-augmented call answers a task at once;
// tasks/get polls it, tasks/result answers the call's own result marked as
// the task's; capabilities and tools/list say which tools run as tasks.
func TestTasks2025Lifecycle(t *testing.T) {
	srv := mustCompile(t, tasksConfig, nil)
	c := rawSession(t, srv)
	init := c.initialize(map[string]any{})
	caps := init["capabilities"].(map[string]any)
	if diff := cmp.Diff(taskwire.Capabilities(), caps["tasks"]); diff != "" {
		t.Errorf("capabilities.tasks (-want +got):\n%s", diff)
	}
	list := c.must("tools/list", map[string]any{})
	support := map[string]any{}
	for _, tl := range list["tools"].([]any) {
		tl := tl.(map[string]any)
		ex, _ := tl["execution"].(map[string]any)
		support[tl["name"].(string)] = ex["taskSupport"]
	}
	want := map[string]any{"greet": "optional", "slow": "required", "failing": "optional", "plain": nil, "confirm_delete": "optional"}
	if diff := cmp.Diff(want, support); diff != "" {
		t.Errorf("taskSupport (-want +got):\n%s", diff)
	}

	created := c.must("tools/call", map[string]any{"name": "greet", "arguments": map[string]any{"name": "Ada"}, "task": map[string]any{"ttl": 60000}})
	tk := created["task"].(map[string]any)
	id := tk["taskId"].(string)
	if tk["status"] != "working" || tk["ttl"] != float64(60000) || tk["pollInterval"] != float64(250) {
		t.Errorf("created task = %v; want working, ttl 60000 (asked), pollInterval 250", tk)
	}
	for _, k := range []string{"createdAt", "lastUpdatedAt"} {
		if _, err := time.Parse(time.RFC3339, tk[k].(string)); err != nil {
			t.Errorf("%s: %v", k, err)
		}
	}
	res := c.must("tasks/result", map[string]any{"taskId": id})
	want2 := map[string]any{"content": []any{map[string]any{"type": "text", "text": "Hello, Ada!"}},
		"_meta": map[string]any{taskwire.RelatedTaskKey: map[string]any{"taskId": id}}}
	if diff := cmp.Diff(want2, res); diff != "" {
		t.Errorf("tasks/result (-want +got):\n%s", diff)
	}
	if got := c.pollUntil(id, nil, "completed"); got["taskId"] != id {
		t.Errorf("tasks/get = %v", got)
	}
	// the status notifications reached the session that made the task
	deadline := time.Now().Add(waitLimit)
	for len(c.notifications("notifications/tasks/status")) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	notes := c.notifications("notifications/tasks/status")
	if len(notes) == 0 || notes[len(notes)-1]["status"] != "completed" || notes[len(notes)-1]["taskId"] != id {
		t.Errorf("status notifications = %v; want the last one completed for %s", notes, id)
	}
}

// TestTasks2025Refusals: a required-task tool called plainly, and a tool
// that is no task called as one, get -32601; unknown ids -32602.
func TestTasks2025Refusals(t *testing.T) {
	srv := mustCompile(t, tasksConfig, nil)
	c := rawSession(t, srv)
	c.initialize(map[string]any{})
	for _, tt := range []struct {
		name   string
		method string
		params map[string]any
		code   int64
	}{
		{"required without task", "tools/call", map[string]any{"name": "slow"}, jsonrpc.CodeMethodNotFound},
		{"forbidden with task", "tools/call", map[string]any{"name": "plain", "task": map[string]any{}}, jsonrpc.CodeMethodNotFound},
		{"unknown id get", "tasks/get", map[string]any{"taskId": "nope"}, jsonrpc.CodeInvalidParams},
		{"unknown id result", "tasks/result", map[string]any{"taskId": "nope"}, jsonrpc.CodeInvalidParams},
		{"unknown id cancel", "tasks/cancel", map[string]any{"taskId": "nope"}, jsonrpc.CodeInvalidParams},
		{"bad cursor", "tasks/list", map[string]any{"cursor": "!!"}, jsonrpc.CodeInvalidParams},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.call(tt.method, tt.params)
			if err == nil || err.Code != tt.code {
				t.Errorf("%s: error %v; want code %d", tt.method, err, tt.code)
			}
		})
	}
	if got := c.must("tools/call", map[string]any{"name": "greet", "arguments": map[string]any{"name": "x"}}); textContent(got) != "Hello, x!" {
		t.Errorf("an optional-task tool called plainly = %v", got)
	}
}

// textContent joins the text blocks of a decoded result.
func textContent(res map[string]any) string {
	var parts []string
	cs, _ := res["content"].([]any)
	for _, c := range cs {
		if m, _ := c.(map[string]any); m["type"] == "text" {
			parts = append(parts, m["text"].(string))
		}
	}
	return strings.Join(parts, "\n")
}

// TestTasks2025FailAndCancel: a tool error fails the task, its result still
// the call's; a cancelled task stops its work, stays cancelled, and cannot
// be cancelled twice; the per-caller cap refuses a fourth live task.
func TestTasks2025FailAndCancel(t *testing.T) {
	srv := mustCompile(t, tasksConfig, nil)
	c := rawSession(t, srv)
	c.initialize(map[string]any{})
	id := c.must("tools/call", map[string]any{"name": "failing", "task": map[string]any{}})["task"].(map[string]any)["taskId"].(string)
	got := c.pollUntil(id, nil, "failed")
	if got["statusMessage"] != "it broke" {
		t.Errorf("failed task = %v; want statusMessage %q", got, "it broke")
	}
	if res := c.must("tasks/result", map[string]any{"taskId": id}); res["isError"] != true || textContent(res) != "it broke" {
		t.Errorf("tasks/result of a failed task = %v", res)
	}

	slow := c.must("tools/call", map[string]any{"name": "slow", "task": map[string]any{}})["task"].(map[string]any)["taskId"].(string)
	waiting := c.start("tasks/result", map[string]any{"taskId": slow})
	cancelled := c.must("tasks/cancel", map[string]any{"taskId": slow})
	if cancelled["status"] != "cancelled" {
		t.Errorf("tasks/cancel = %v; want status cancelled", cancelled)
	}
	if res, err := c.await(waiting); err != nil || res["isError"] != true {
		t.Errorf("tasks/result of a cancelled task = %v, %v; want an error result", res, err)
	}
	if _, err := c.call("tasks/cancel", map[string]any{"taskId": slow}); err == nil || err.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("cancelling twice: %v; want -32602", err)
	}
	if got := c.pollUntil(slow, nil, "cancelled", "completed", "failed"); got["status"] != "cancelled" {
		t.Errorf("after its work stopped the task is %v; want it to stay cancelled", got["status"])
	}
	// two tasks held (failing, slow); one more is allowed, then no more
	c.must("tools/call", map[string]any{"name": "greet", "task": map[string]any{}})
	if _, err := c.call("tools/call", map[string]any{"name": "greet", "task": map[string]any{}}); err == nil || !strings.Contains(err.Message, "most allowed") {
		t.Errorf("a fourth task: %v; want the cap's error", err)
	}
}

// TestTasks2025List: tasks/list pages through the caller's tasks, oldest
// first, with an opaque cursor.
func TestTasks2025List(t *testing.T) {
	cfg := strings.Replace(tasksConfig, "max_per_caller: 3", "max_per_caller: 200", 1)
	srv := mustCompile(t, cfg, nil)
	c := rawSession(t, srv)
	c.initialize(map[string]any{})
	var want []string
	for range taskwire.PageSize + 7 {
		want = append(want, c.must("tools/call", map[string]any{"name": "greet", "task": map[string]any{}})["task"].(map[string]any)["taskId"].(string))
	}
	var got []string
	cursor := ""
	for pages := 0; ; pages++ {
		params := map[string]any{}
		if cursor != "" {
			params["cursor"] = cursor
		}
		page := c.must("tasks/list", params)
		for _, tk := range page["tasks"].([]any) {
			got = append(got, tk.(map[string]any)["taskId"].(string))
		}
		next, _ := page["nextCursor"].(string)
		if next == "" {
			if pages != 1 {
				t.Errorf("%d pages; want 2", pages+1)
			}
			break
		}
		cursor = next
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("listed tasks (-want +got):\n%s", diff)
	}
}

// TestTasks2025Elicit: a task's elicitation goes to the session, marked as
// the task's, the task input_required meanwhile.
func TestTasks2025Elicit(t *testing.T) {
	srv := mustCompile(t, tasksConfig, nil)
	c := rawSession(t, srv)
	c.initialize(map[string]any{"elicitation": map[string]any{}})
	id := c.must("tools/call", map[string]any{"name": "confirm_delete", "task": map[string]any{}})["task"].(map[string]any)["taskId"].(string)
	var ask *jsonrpc.Request
	select {
	case ask = <-c.asks:
	case <-time.After(waitLimit):
		t.Fatal("no elicitation")
	}
	var p map[string]any
	_ = json.Unmarshal(ask.Params, &p)
	if meta, _ := p["_meta"].(map[string]any); fmt.Sprint(meta[taskwire.RelatedTaskKey]) != fmt.Sprint(map[string]any{"taskId": id}) {
		t.Errorf("elicitation _meta = %v; want the related task", p["_meta"])
	}
	c.pollUntil(id, nil, "input_required")
	c.answer(ask, map[string]any{"action": "accept", "content": map[string]any{"ok": true}})
	if res := c.must("tasks/result", map[string]any{"taskId": id}); textContent(res) != "deleted: true" {
		t.Errorf("result = %v", res)
	}
}

// TestTaskIfSupportedStepAsks: a task's `if_supported` step asks a client
// that declared the capability; it used to be skipped in every task,
// because the task's notifier did not know the client's capabilities.
func TestTaskIfSupportedStepAsks(t *testing.T) {
	srv := mustCompile(t, `version: 1
tools:
  - name: confirm_maybe
    description: Asks first when it can.
    task: optional
    steps:
      - elicit: {message: "Delete it?", schema: {type: object, properties: {ok: {type: boolean}}}, as: answer, if_supported: true}
    content: [{text: "deleted: {{ .steps.answer.content.ok }}"}]
`, nil)
	c := rawSession(t, srv)
	c.initialize(map[string]any{"elicitation": map[string]any{}})
	id := c.must("tools/call", map[string]any{"name": "confirm_maybe", "task": map[string]any{}})["task"].(map[string]any)["taskId"].(string)
	var ask *jsonrpc.Request
	select {
	case ask = <-c.asks:
	case <-time.After(waitLimit):
		t.Fatal("the if_supported step asked nothing of a client that declared elicitation")
	}
	c.answer(ask, map[string]any{"action": "accept", "content": map[string]any{"ok": true}})
	if res := c.must("tasks/result", map[string]any{"taskId": id}); textContent(res) != "deleted: true" {
		t.Errorf("result = %v", res)
	}
}

// TestTasksSurviveReload: a task started before a reload keeps running and
// stays readable and cancellable after it, and a task started after it is
// found by the task methods (registered once, on the first config).
func TestTasksSurviveReload(t *testing.T) {
	first := mustCompile(t, tasksConfig, nil)
	l := NewLive(first)
	t.Cleanup(func() { l.Close() })
	c := rawSession(t, first)
	c.initialize(map[string]any{})
	created := c.must("tools/call", map[string]any{"name": "slow", "arguments": map[string]any{}, "task": map[string]any{"ttl": 60000}})
	before := created["task"].(map[string]any)["taskId"].(string)

	l.Swap(mustCompile(t, tasksConfig, nil))

	if got := c.must("tasks/get", map[string]any{"taskId": before}); got["status"] != "working" {
		t.Errorf("the task started before the reload: %v, want working", got)
	}
	created = c.must("tools/call", map[string]any{"name": "greet", "arguments": map[string]any{"name": "Ada"}, "task": map[string]any{"ttl": 60000}})
	after := created["task"].(map[string]any)["taskId"].(string)
	res := c.must("tasks/result", map[string]any{"taskId": after})
	if text := res["content"].([]any)[0].(map[string]any)["text"]; text != "Hello, Ada!" {
		t.Errorf("result of the task started after the reload: %v", res)
	}
	if got := c.must("tasks/cancel", map[string]any{"taskId": before}); got["status"] != "cancelled" {
		t.Errorf("cancelling the task started before the reload: %v", got)
	}
}
