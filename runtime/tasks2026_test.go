package runtime

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/taskwire"
)

// TestTasks2026MissingCapability: a 2026 task that needs the user, for a
// client that did not declare elicitation, fails with -32021 rather than
// waiting for an answer that cannot come.
func TestTasks2026MissingCapability(t *testing.T) {
	srv := mustCompile(t, tasksConfig, nil)
	c := rawSession(t, srv)
	params := call2026(map[string]any{"name": "confirm_delete"}, true)
	caps := params["_meta"].(map[string]any)[mcp.MetaKeyClientCapabilities].(map[string]any)
	delete(caps, "elicitation")
	id := c.must("tools/call", params)["taskId"].(string)
	got := c.pollUntil(id, meta2026(true), "failed", "completed", "input_required")
	e, _ := got["error"].(map[string]any)
	if got["status"] != "failed" || e["code"] != float64(taskwire.CodeMissingCapability) || got["result"] != nil {
		t.Errorf("task = %v; want failed with -32021 and no result", got)
	}
}

// call2026 makes params a 2026-07-28 request, declaring the tasks
// extension or not.
func call2026(params map[string]any, tasks bool) map[string]any {
	params["_meta"] = meta2026(tasks)
	return params
}

// TestTasks2026Lifecycle: with the extension declared on the request, the
// server answers a flat task; tasks/get inlines the result when done; a
// tool error completes the task; cancel is acknowledged, also twice.
func TestTasks2026Lifecycle(t *testing.T) {
	srv := mustCompile(t, tasksConfig, nil)
	c := rawSession(t, srv)
	created := c.must("tools/call", call2026(map[string]any{"name": "greet", "arguments": map[string]any{"name": "Ada"}}, true))
	if created["resultType"] != "task" || created["ttlMs"] != float64(600000) || created["pollIntervalMs"] != float64(250) {
		t.Errorf("created = %v; want resultType task, ttlMs 600000, pollIntervalMs 250", created)
	}
	for _, k := range []string{"task", "ttl", "pollInterval", "requestState"} {
		if _, ok := created[k]; ok {
			t.Errorf("created has %q: %v", k, created)
		}
	}
	id := created["taskId"].(string)
	got := c.pollUntil(id, meta2026(true), "completed")
	want := map[string]any{"content": []any{map[string]any{"type": "text", "text": "Hello, Ada!"}}}
	if diff := cmp.Diff(want, got["result"]); diff != "" || got["resultType"] != "complete" {
		t.Errorf("tasks/get result (-want +got):\n%s\n%v", diff, got)
	}

	failing := c.must("tools/call", call2026(map[string]any{"name": "failing"}, true))["taskId"].(string)
	got = c.pollUntil(failing, meta2026(true), "completed", "failed")
	if res, _ := got["result"].(map[string]any); got["status"] != "completed" || res["isError"] != true {
		t.Errorf("a tool error = %v; want completed with isError", got)
	}

	slow := c.must("tools/call", call2026(map[string]any{"name": "slow", "task": map[string]any{"ttl": 1}}, true))["taskId"].(string)
	for range 2 {
		ack := c.must("tasks/cancel", call2026(map[string]any{"taskId": slow}, true))
		delete(ack, "_meta") // the SDK's serverInfo
		if len(ack) != 1 || ack["resultType"] != "complete" {
			t.Errorf("tasks/cancel = %v; want an empty ack", ack)
		}
	}
	c.pollUntil(slow, meta2026(true), "cancelled")
}

// TestTasks2026Discover: server/discover advertises the extension, not the
// 2025-11-25 capabilities.tasks; initialize keeps the latter.
func TestTasks2026Discover(t *testing.T) {
	srv := mustCompile(t, tasksConfig, nil)
	c := rawSession(t, srv)
	caps := c.must("server/discover", map[string]any{"_meta": meta2026(true)})["capabilities"].(map[string]any)
	if ext, _ := caps["extensions"].(map[string]any); ext[taskwire.Extension] == nil || caps["tasks"] != nil {
		t.Errorf("discover capabilities = %v; want the extension and no tasks", caps)
	}
	if caps := rawSession(t, srv).initialize(nil)["capabilities"].(map[string]any); caps["tasks"] == nil {
		t.Errorf("initialize capabilities = %v; want tasks", caps)
	}
}

// TestTasks2026Refusals: the extension's errors.
func TestTasks2026Refusals(t *testing.T) {
	srv := mustCompile(t, tasksConfig, nil)
	c := rawSession(t, srv)
	id := c.must("tools/call", call2026(map[string]any{"name": "greet"}, true))["taskId"].(string)
	for _, tt := range []struct {
		name   string
		method string
		params map[string]any
		code   int64
	}{
		{"required task, no extension", "tools/call", call2026(map[string]any{"name": "slow"}, false), taskwire.CodeMissingCapability},
		{"get without extension", "tasks/get", call2026(map[string]any{"taskId": id}, false), taskwire.CodeMissingCapability},
		{"cancel without extension", "tasks/cancel", call2026(map[string]any{"taskId": id}, false), taskwire.CodeMissingCapability},
		{"update without extension", "tasks/update", call2026(map[string]any{"taskId": id}, false), taskwire.CodeMissingCapability},
		{"tasks/result", "tasks/result", call2026(map[string]any{"taskId": id}, true), jsonrpc.CodeMethodNotFound},
		{"tasks/list", "tasks/list", call2026(map[string]any{}, true), jsonrpc.CodeMethodNotFound},
		{"unknown id", "tasks/get", call2026(map[string]any{"taskId": "nope"}, true), jsonrpc.CodeInvalidParams},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.call(tt.method, tt.params)
			if err == nil || err.Code != tt.code {
				t.Fatalf("%s: error %v; want code %d", tt.method, err, tt.code)
			}
			if tt.code == taskwire.CodeMissingCapability && string(err.Data) != `{"requiredCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}` {
				t.Errorf("data = %s", err.Data)
			}
		})
	}
	// an optional-task tool from a client without the extension: a plain result
	if got := c.must("tools/call", call2026(map[string]any{"name": "greet", "arguments": map[string]any{"name": "x"}}, false)); textContent(got) != "Hello, x!" {
		t.Errorf("plain call = %v", got)
	}
}

// TestTasks2026Input: a task's elicitation becomes an input request on the
// task; tasks/update answers it (an unknown key is ignored) and the task
// goes on.
func TestTasks2026Input(t *testing.T) {
	srv := mustCompile(t, tasksConfig, nil)
	c := rawSession(t, srv)
	id := c.must("tools/call", call2026(map[string]any{"name": "confirm_delete"}, true))["taskId"].(string)
	got := c.pollUntil(id, meta2026(true), "input_required")
	reqs := got["inputRequests"].(map[string]any)
	if len(reqs) != 1 {
		t.Fatalf("inputRequests = %v; want one", reqs)
	}
	var key string
	for k, v := range reqs {
		key = k
		if m := v.(map[string]any); m["method"] != "elicitation/create" {
			t.Errorf("input request = %v; want an elicitation", m)
		}
	}
	c.must("tasks/update", call2026(map[string]any{"taskId": id, "inputResponses": map[string]any{"other": map[string]any{"action": "decline"}}}, true))
	if again := c.pollUntil(id, meta2026(true), "input_required", "completed"); again["status"] != "input_required" {
		t.Errorf("an answer to an unknown key moved the task to %v", again["status"])
	}
	c.must("tasks/update", call2026(map[string]any{"taskId": id, "inputResponses": map[string]any{
		key: map[string]any{"action": "accept", "content": map[string]any{"ok": true}}}}, true))
	done := c.pollUntil(id, meta2026(true), "completed")
	if res := done["result"].(map[string]any); textContent(res) != "deleted: true" {
		t.Errorf("result = %v", res)
	}
}

const askingTasksConfig = `version: 1
tools:
  - name: two_questions
    description: Asks two things at once.
    task: optional
    steps:
      - elicit: {message: "Name?", schema: {type: object, properties: {name: {type: string}}}, as: who}
      - elicit: {message: "Sure?", schema: {type: object, properties: {ok: {type: boolean}}}, as: sure}
    content: [{text: "{{ .steps.who.content.name }} {{ .steps.sure.content.ok }}"}]
  - name: name_first
    description: Asks the name in the call, then works as a task.
    task: required
    task_after: who
    steps:
      - log: {message: before}
      - elicit: {message: "Name?", schema: {type: object, properties: {name: {type: string}}}, as: who}
      - elicit: {message: "Sure?", schema: {type: object, properties: {ok: {type: boolean}}}, as: sure}
    content: [{text: "{{ .steps.who.content.name }} {{ .steps.sure.content.ok }}"}]
`

// TestTasks2026PartialAnswers: independent questions of a task wait on it
// together; answering one removes it from the task's input requests at
// once and leaves the task input_required until the other is answered.
func TestTasks2026PartialAnswers(t *testing.T) {
	srv := mustCompile(t, askingTasksConfig, nil)
	c := rawSession(t, srv)
	id := c.must("tools/call", call2026(map[string]any{"name": "two_questions"}, true))["taskId"].(string)
	got := c.pollUntil(id, meta2026(true), "input_required")
	reqs := got["inputRequests"].(map[string]any)
	if reqs["who"] == nil || reqs["sure"] == nil || len(reqs) != 2 {
		t.Fatalf("inputRequests = %v; want who and sure at once", reqs)
	}
	c.must("tasks/update", call2026(map[string]any{"taskId": id, "inputResponses": map[string]any{
		"who": map[string]any{"action": "accept", "content": map[string]any{"name": "Ada"}}}}, true))
	got = c.must("tasks/get", call2026(map[string]any{"taskId": id}, true))
	if reqs := got["inputRequests"].(map[string]any); got["status"] != "input_required" || reqs["sure"] == nil || len(reqs) != 1 {
		t.Fatalf("after a partial answer: %v; want input_required with only sure pending", got)
	}
	answerLast(t, c, id, "sure", map[string]any{"ok": true}, "Ada true")
}

// TestTasks2026TaskAfter: with task_after, the questions up to that step
// are input requests of the call itself (no task yet, a signed state);
// the retry with the answers starts the task, which asks the rest through
// tasks/update and ends with both answers. The state cannot start a second
// task.
func TestTasks2026TaskAfter(t *testing.T) {
	srv := mustCompile(t, askingTasksConfig, nil)
	c := rawSession(t, srv)
	first := c.must("tools/call", call2026(map[string]any{"name": "name_first"}, true))
	reqs, _ := first["inputRequests"].(map[string]any)
	state, _ := first["requestState"].(string)
	if first["resultType"] != "input_required" || first["taskId"] != nil || reqs["who"] == nil || len(reqs) != 1 || state == "" {
		t.Fatalf("first round = %v; want input_required asking who, with a state and no task", first)
	}
	retry := call2026(map[string]any{"name": "name_first", "requestState": state, "inputResponses": map[string]any{
		"who": map[string]any{"action": "accept", "content": map[string]any{"name": "Ada"}}}}, true)
	created := c.must("tools/call", retry)
	id, _ := created["taskId"].(string)
	if created["resultType"] != "task" || id == "" || created["requestState"] != nil || created["inputRequests"] != nil {
		t.Fatalf("second round = %v; want a task without requestState or inputRequests", created)
	}
	got := c.pollUntil(id, meta2026(true), "input_required")
	if reqs := got["inputRequests"].(map[string]any); reqs["sure"] == nil || len(reqs) != 1 {
		t.Fatalf("task asks %v; want only sure (who was answered before the task)", reqs)
	}
	answerLast(t, c, id, "sure", map[string]any{"ok": true}, "Ada true")
	if _, err := c.call("tools/call", retry); err == nil || err.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("replayed state: error %v; want -32602", err)
	}
}

// TestTaskAfterErrors: task_after names a step of a task tool.
func TestTaskAfterErrors(t *testing.T) {
	for _, tc := range []struct{ tool, want string }{
		{"task_after: who\n    steps: [{elicit: {message: m, as: who}}]", "task_after is for tools that run as tasks"},
		{"task: optional\n    task_after: whoo\n    steps: [{elicit: {message: m, as: who}}]", `no step of this tool is named "whoo"`},
	} {
		_, ds := compileText(t, "version: 1\ntools:\n  - name: x\n    description: d\n    content: [{text: t}]\n    "+tc.tool+"\n", nil)
		wantDiag(t, ds, "tools[0].task_after", tc.want)
	}
}

// answerLast accepts task id's last question, key, with content; the task
// must then complete with the text want.
func answerLast(t *testing.T, c *rpcClient, id, key string, content map[string]any, want string) {
	t.Helper()
	c.must("tasks/update", call2026(map[string]any{"taskId": id, "inputResponses": map[string]any{
		key: map[string]any{"action": "accept", "content": content}}}, true))
	done := c.pollUntil(id, meta2026(true), "completed", "failed")
	if res, _ := done["result"].(map[string]any); textContent(res) != want {
		t.Errorf("task = %v; want completed with %q", done, want)
	}
}
