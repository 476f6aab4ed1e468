package httpkind_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestResponse(t *testing.T) {
	t.Parallel()
	records := map[string]any{"records": []any{map[string]any{"id": 1, "title": "a"}}, "total": 1}
	for _, tt := range []struct {
		name, handler string
		reply         http.HandlerFunc
		wantErr       bool
		want          string // text, or a part of an error's text
		structured    string // JSON of structuredContent, "" for none
	}{
		{name: "json body is the result",
			reply: jsonReply(200, map[string]any{"id": 7}), want: "{\n  \"id\": 7\n}", structured: `{"id":7}`},
		{name: "extraction expression; lists are wrapped",
			handler: "result: ${{ response.body.records }}", reply: jsonReply(200, records),
			want: "{\n  \"items\": [\n    {\n      \"id\": 1,\n      \"title\": \"a\"\n    }\n  ]\n}", structured: `{"items":[{"id":1,"title":"a"}]}`},
		{name: "text template",
			handler: "result: ${{ response.body }}\ntext: \"{{ .result.total }} found; first: {{ (index .result.records 0).title }} (HTTP {{ .response.status }})\"",
			reply:   jsonReply(200, records), want: "1 found; first: a (HTTP 200)", structured: `{"records":[{"id":1,"title":"a"}],"total":1}`},
		{name: "default error summarises the body",
			reply:   jsonReply(404, map[string]any{"error": "no such ticket", "trace": strings.Repeat("secret internals ", 100)}),
			wantErr: true, want: "HTTP 404 Not Found: no such ticket"},
		{name: "an HTML error page is summarised, not dumped",
			reply: func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				w.WriteHeader(502)
				_, _ = w.Write([]byte("<html><head><style>body{}</style></head><body><h1>Bad gateway</h1>" + strings.Repeat("<p>filler</p>", 500) + "</body></html>"))
			},
			handler: "retries: {max: 0}",
			wantErr: true, want: "HTTP 502 Bad Gateway: Bad gateway filler"},
		{name: "error rule on status with a templated message",
			handler: "errors:\n  - status: [\"404\"]\n    message: \"ticket not found; use search_tickets to find its id\"",
			reply:   jsonReply(404, map[string]any{}), wantErr: true, want: "ticket not found; use search_tickets to find its id"},
		{name: "error rule on the body of a 200",
			handler: "errors:\n  - when: ${{ response.body.ok == false }}\n    message: \"upstream says: {{ .response.body.reason }}\"",
			reply:   jsonReply(200, map[string]any{"ok": false, "reason": "archived"}), wantErr: true, want: "upstream says: archived"},
		{name: "error rules that do not match leave success alone",
			handler: "errors:\n  - status: [4xx]\n    message: nope\n  - when: ${{ response.body.ok == false }}\n    message: nope",
			reply:   jsonReply(200, map[string]any{"ok": true}), want: "{\n  \"ok\": true\n}", structured: `{"ok":true}`},
		{name: "custom success statuses",
			handler: "success: [\"200-299\", \"404\"]\nresult: '${{ {\"found\": response.status != 404} }}'",
			reply:   jsonReply(404, map[string]any{}), want: "{\n  \"found\": false\n}", structured: `{"found":false}`},
		{name: "non-JSON body under a JSON content type is text",
			reply: func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte("<html>oops</html>"))
			}, want: "<html>oops</html>"},
		{name: "plain text",
			reply: func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/plain")
				_, _ = w.Write([]byte("hello"))
			}, want: "hello"},
		{name: "invalid UTF-8 is replaced",
			reply: func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/plain")
				_, _ = w.Write([]byte("caf\xe9 \xff"))
			}, want: "caf\uFFFD \uFFFD"},
		{name: "Latin-1 is converted",
			reply: func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/plain; charset=ISO-8859-1")
				_, _ = w.Write([]byte("caf\xe9"))
			}, want: "café"},
		{name: "a body over the cap is truncated with a note",
			handler: "max_response: 16",
			reply: func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte(`{"data": "` + strings.Repeat("x", 100) + `"}`))
			}, want: "{\"data\": \"xxxxxx\n[truncated: the response is larger than 16 bytes; only the first 16 bytes were read]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := newRecorder(t, tt.reply)
			s := build(t, withBackend(srv.URL, "", tool("", tt.handler)))
			res := call(t, s, "t", `{}`)
			if tt.wantErr {
				if got := mustFail(t, res); !strings.Contains(got, tt.want) || len(got) > 400 {
					t.Errorf("error %q: want it to contain %q and be short", got, tt.want)
				}
				return
			}
			if diff := cmp.Diff(tt.want, mustSucceed(t, res)); diff != "" {
				t.Errorf("text (-want +got):\n%s", diff)
			}
			var structured string
			if res.StructuredContent != nil {
				data, _ := json.Marshal(res.StructuredContent)
				structured = string(data)
			}
			if diff := cmp.Diff(tt.structured, structured); diff != "" {
				t.Errorf("structuredContent (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBinaryContent(t *testing.T) {
	t.Parallel()
	png := []byte("\x89PNG\r\n\x1a\nfake")
	for _, tt := range []struct {
		ctype string
		want  mcp.Content
	}{
		{"image/png", &mcp.ImageContent{Data: png, MIMEType: "image/png"}},
		{"audio/wav", &mcp.AudioContent{Data: png, MIMEType: "audio/wav"}},
		{"application/pdf", &mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "URL/files/1", MIMEType: "application/pdf", Blob: png}}},
	} {
		t.Run(tt.ctype, func(t *testing.T) {
			t.Parallel()
			srv := newRecorder(t, func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", tt.ctype)
				_, _ = w.Write(png)
			})
			s := build(t, withBackend(srv.URL, "auth:\n  api_key: {query: key, value: s3cr3t-key}\n", tool("", "path: /files/1")))
			res := call(t, s, "t", `{}`)
			if res.IsError || len(res.Content) != 1 {
				t.Fatalf("want one content block, got isError=%v %d blocks", res.IsError, len(res.Content))
			}
			if e, ok := tt.want.(*mcp.EmbeddedResource); ok {
				e.Resource.URI = srv.URL + "/files/1"
			}
			if diff := cmp.Diff(tt.want, res.Content[0]); diff != "" {
				t.Errorf("content (-want +got):\n%s", diff)
			}
		})
	}
}

func TestExpressionsAreCheckedAtLoad(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, handler, want string }{
		{"unknown response field", "result: ${{ response.stauts }}", `unknown field stauts`},
		{"unknown argument", "path: /x/${{ args.idd }}", `unknown field idd`},
		{"bad status", "success: [\"2xy\"]", `invalid status "2xy"`},
		{"unknown method", "method: FETCH", `expected one of GET, HEAD, POST`},
		{"two bodies", "method: POST\nbody:\n  raw: a\n  json: {a: 1}", "exactly one of json, form, multipart, raw"},
		{"template field", "text: \"{{ .nope }}\"", "nope"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ds := diagnose(t, withBackend("http://127.0.0.1:9", "", tool("- {name: id}", tt.handler)))
			if !strings.Contains(ds, tt.want) {
				t.Errorf("diagnostics %q do not mention %q", ds, tt.want)
			}
		})
	}
}

// TestEnumsReportedOnce checks that a value outside an enumeration gets one
// diagnostic, the loader's, and no second one from the kind.
func TestEnumsReportedOnce(t *testing.T) {
	t.Parallel()
	for _, h := range []string{"method: FETCH", "query_style: pipes", "pagination: {mode: pages, next: \"${{ nil }}\"}"} {
		t.Run(h, func(t *testing.T) {
			t.Parallel()
			ds := diagnose(t, withBackend("http://127.0.0.1:9", "", tool("- {name: id}", h)))
			if lines := strings.Split(ds, "\n"); len(lines) != 1 || !strings.Contains(ds, "expected one of") {
				t.Errorf("diagnostics %q: want one, saying what is expected", ds)
			}
		})
	}
}
