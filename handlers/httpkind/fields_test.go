package httpkind_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestResultFields: a backend's result_fields are added to every tool's
// structured result, beside the tool's own, which win by name.
func TestResultFields(t *testing.T) {
	t.Parallel()
	const backend = "result_fields:\n  rate_limit_remaining: \"${{ int(response.headers['x-ratelimit-remaining']) }}\"\n" +
		"  source: api\n"
	for _, tt := range []struct {
		name, handler string
		body          any
		want          string // structuredContent as JSON; "" for none
	}{
		{"an object", "path: /x", map[string]any{"id": 1}, `{"id":1,"rate_limit_remaining":41,"source":"api"}`},
		{"a list", "path: /x", []any{1, 2}, `{"items":[1,2],"rate_limit_remaining":41,"source":"api"}`},
		{"the tool's own fields win", "path: /x\nresult_fields: {source: tool, status: '${{ response.status }}'}",
			map[string]any{"id": 1}, `{"id":1,"rate_limit_remaining":41,"source":"tool","status":200}`},
		{"followed pages", "path: /x\npagination: {mode: follow, next: '${{ nil }}', items: '${{ response.body }}'}",
			[]any{1, 2}, `{"items":[1,2],"pages":1,"rate_limit_remaining":41,"source":"api"}`},
		{"text gets none", "path: /x", "plain text", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("X-RateLimit-Remaining", "41")
				if s, ok := tt.body.(string); ok {
					w.Header().Set("Content-Type", "text/plain")
					_, _ = w.Write([]byte(s))
					return
				}
				jsonReply(200, tt.body)(w, r)
			})
			res := call(t, build(t, withBackend(srv.URL, backend, tool("", tt.handler))), "t", `{}`)
			mustSucceed(t, res)
			var got string
			if res.StructuredContent != nil {
				data, _ := json.Marshal(res.StructuredContent)
				got = string(data)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("structuredContent (-want +got):\n%s", diff)
			}
		})
	}
}

// TestComputedBody: a body with a key named by an argument, built with a
// computed key, merge and fromPairs, is sent as that object.
func TestComputedBody(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, body, args, want string }{
		{"computed key and merge", `merge({(args.field): args.value}, args.owner == nil ? nil : {owner: args.owner})`,
			`{"field": "tier", "value": "gold"}`, `{"tier":"gold"}`},
		{"merge with an object argument", `merge({(args.field): args.value}, args.owner == nil ? nil : {owner: args.owner})`,
			`{"field": "tier", "value": "gold", "owner": {"id": 3}}`, `{"owner":{"id":3},"tier":"gold"}`},
		{"fromPairs", `fromPairs([[args.field, args.value], ['n', 1]])`, `{"field": "tier", "value": "gold"}`, `{"n":1,"tier":"gold"}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newRecorder(t, jsonReply(200, map[string]any{}))
			s := build(t, withBackend(srv.URL, "", tool("- {name: field, required: true}\n- {name: value}\n- {name: owner, type: object}",
				"method: POST\npath: /x\nbody:\n  json: \"${{ "+tt.body+" }}\"")))
			mustSucceed(t, call(t, s, "t", tt.args))
			if got := srv.last(t).Body; got != tt.want {
				t.Errorf("body %s, want %s", got, tt.want)
			}
		})
	}
}
