package httpkind_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tool is one tool "t" on backend "api" with these args and handler lines.
func tool(args, handler string) string {
	s := "  - name: t\n    description: test tool\n"
	if args != "" {
		s += "    args:\n" + indent(args, "      ")
	}
	return s + "    handler:\n      backend: api\n" + indent(handler, "      ")
}

func TestRequest(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, args, handler, call string
		want                      recorded
		header                    map[string]string
	}{
		{name: "path segments are escaped",
			args:    "- {name: id, required: true}",
			handler: "path: /tickets/${{ args.id }}/comments",
			call:    `{"id": "a/b?admin=true"}`,
			want:    recorded{Method: "GET", Path: "/api/tickets/a/b?admin=true/comments", RawPath: "/api/tickets/a%2Fb%3Fadmin=true/comments"}},
		{name: "dot segments cannot climb",
			args:    "- {name: id, required: true}",
			handler: "path: /tickets/${{ args.id }}",
			call:    `{"id": "../../admin"}`,
			want:    recorded{Method: "GET", Path: "/api/tickets/../../admin", RawPath: "/api/tickets/..%2F..%2Fadmin"}},
		{name: "dots within a segment stay",
			args:    "- {name: id, required: true}",
			handler: "path: /tickets/${{ args.id }}",
			call:    `{"id": "..."}`,
			want:    recorded{Method: "GET", Path: "/api/tickets/...", RawPath: "/api/tickets/..."}},
		{name: "an attempt to change the host stays in the path",
			args:    "- {name: id, required: true}",
			handler: "path: ${{ args.id }}",
			call:    `{"id": "//evil.example:80/x"}`,
			want:    recorded{Method: "GET", Path: "/api///evil.example:80/x", RawPath: "/api/%2F%2Fevil.example:80%2Fx"}},
		{name: "query scalars and repeated arrays",
			args:    "- {name: q}\n- {name: tags, type: array}\n- {name: limit, type: integer}\n- {name: absent}",
			handler: "path: /search\nquery:\n  q: ${{ args.q }}\n  tag: ${{ args.tags }}\n  limit: ${{ args.limit }}\n  gone: ${{ args.absent }}",
			call:    `{"q": "a b&c", "tags": ["x", "y"], "limit": 5}`,
			want:    recorded{Method: "GET", Path: "/api/search", RawPath: "/api/search", RawQuery: "limit=5&q=a+b%26c&tag=x&tag=y"}},
		{name: "indexed arrays",
			args:    "- {name: tags, type: array}",
			handler: "query_style: indexed\nquery:\n  tag: ${{ args.tags }}",
			call:    `{"tags": ["x", "y"]}`,
			want:    recorded{Method: "GET", Path: "/api", RawPath: "/api", RawQuery: "tag%5B0%5D=x&tag%5B1%5D=y"}},
		{name: "comma arrays",
			args:    "- {name: tags, type: array}",
			handler: "query_style: comma\nquery:\n  tag: ${{ args.tags }}",
			call:    `{"tags": ["x", "y"]}`,
			want:    recorded{Method: "GET", Path: "/api", RawPath: "/api", RawQuery: "tag=x%2Cy"}},
		{name: "json body keeps types and omits absent keys",
			args:    "- {name: title, required: true}\n- {name: points, type: number}\n- {name: urgent, type: boolean}\n- {name: labels, type: array}\n- {name: owner}",
			handler: "method: POST\npath: /tickets\nbody:\n  json:\n    title: ${{ args.title }}\n    points: ${{ args.points }}\n    urgent: ${{ args.urgent }}\n    labels: ${{ args.labels }}\n    owner: ${{ args.owner }}\n    meta: {source: mcp, n: 1}",
			call:    `{"title": "Broken \"quote\" <b>&", "points": 2.5, "urgent": true, "labels": ["a"]}`,
			want: recorded{Method: "POST", Path: "/api/tickets", RawPath: "/api/tickets",
				Body: `{"labels":["a"],"meta":{"n":1,"source":"mcp"},"points":2.5,"title":"Broken \"quote\" <b>&","urgent":true}`},
			header: map[string]string{"Content-Type": "application/json"}},
		{name: "form body",
			args:    "- {name: text}\n- {name: tags, type: array}",
			handler: "method: POST\nbody:\n  form:\n    text: ${{ args.text }}\n    tag: ${{ args.tags }}",
			call:    `{"text": "a&b=c", "tags": ["1", "2"]}`,
			want:    recorded{Method: "POST", Path: "/api", RawPath: "/api", Body: "tag=1&tag=2&text=a%26b%3Dc"},
			header:  map[string]string{"Content-Type": "application/x-www-form-urlencoded"}},
		{name: "raw body",
			args:    "- {name: text}",
			handler: "method: PUT\nbody:\n  raw: \"note: ${{ args.text }}\"\n  content_type: text/markdown",
			call:    `{"text": "*hi*"}`,
			want:    recorded{Method: "PUT", Path: "/api", RawPath: "/api", Body: "note: *hi*"},
			header:  map[string]string{"Content-Type": "text/markdown"}},
		{name: "method override",
			handler: "method: DELETE\nmethod_override: true\npath: /x",
			call:    `{}`,
			want:    recorded{Method: "POST", Path: "/api/x", RawPath: "/api/x"},
			header:  map[string]string{"X-Http-Method-Override": "DELETE"}},
		{name: "headers from arguments, encoded CR LF stays literal",
			args:    "- {name: v}",
			handler: "headers:\n  X-Trace: ${{ args.v }}\n  Accept: text/plain",
			call:    `{"v": "%0d%0aX-Injected: 1"}`,
			want:    recorded{Method: "GET", Path: "/api", RawPath: "/api"},
			header:  map[string]string{"X-Trace": "%0d%0aX-Injected: 1", "Accept": "text/plain", "X-Injected": "", "X-Default": "yes"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newRecorder(t, jsonReply(200, map[string]any{"ok": true}))
			s := build(t, withBackend(srv.URL+"/api/", "headers:\n  X-Default: \"yes\"\n", tool(tt.args, tt.handler)))
			mustSucceed(t, call(t, s, "t", tt.call))
			got := srv.last(t)
			for name, want := range tt.header {
				if g := got.Header.Get(name); g != want {
					t.Errorf("header %s = %q, want %q", name, g, want)
				}
			}
			got.Header = nil
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("request (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRequestRefused(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, args, handler, call, want string }{
		{"CR LF in a header", "- {name: v}", "headers:\n  X-Trace: ${{ args.v }}", `{"v": "a\r\nX-Injected: 1"}`, "line break"},
		{"empty path segment", "- {name: id}", "path: /tickets/${{ args.id }}", `{"id": ""}`, "empty"},
		{"dot-dot path segment", "- {name: id}", "path: /tickets/${{ args.id }}/comments", `{"id": ".."}`, `"." or ".."`},
		{"dot path segment", "- {name: id}", "path: /tickets/${{ args.id }}", `{"id": "."}`, `"." or ".."`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newRecorder(t, jsonReply(200, map[string]any{}))
			s := build(t, withBackend(srv.URL, "", tool(tt.args, tt.handler)))
			if got := mustFail(t, call(t, s, "t", tt.call)); !strings.Contains(got, tt.want) {
				t.Errorf("error %q does not mention %q", got, tt.want)
			}
			if n := len(srv.requests()); n != 0 {
				t.Errorf("the server received %d requests, want none", n)
			}
		})
	}
}

func TestMultipart(t *testing.T) {
	t.Parallel()
	type part struct{ Name, File, Type, Body string }
	var got []part
	srv := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		mr, err := r.MultipartReader()
		if err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		for p, err := mr.NextPart(); err == nil; p, err = mr.NextPart() {
			var b strings.Builder
			buf := make([]byte, 512)
			for n, err := p.Read(buf); n > 0 || err == nil; n, err = p.Read(buf) {
				b.Write(buf[:n])
			}
			got = append(got, part{p.FormName(), p.FileName(), p.Header.Get("Content-Type"), b.String()})
		}
		jsonReply(200, map[string]any{"ok": true})(w, r)
	})
	s := build(t, withBackend(srv.URL, "", tool("- {name: note}\n- {name: doc}",
		"method: POST\nbody:\n  multipart:\n    - {name: note, value: \"${{ args.note }}\"}\n    - {name: doc, value: \"${{ args.doc }}\", filename: report.csv, content_type: text/csv}\n    - {name: meta, value: {a: 1}}")))
	mustSucceed(t, call(t, s, "t", `{"note": "hello", "doc": "a,b\n1,2\n"}`))
	want := []part{{"note", "", "text/plain; charset=utf-8", "hello"}, {"doc", "report.csv", "text/csv", "a,b\n1,2\n"},
		{"meta", "", "text/plain; charset=utf-8", `{"a":1}`}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parts (-want +got):\n%s", diff)
	}
}
