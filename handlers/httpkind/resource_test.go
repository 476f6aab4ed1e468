package httpkind_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers/handlertest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestResources(t *testing.T) {
	t.Parallel()
	api := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.EscapedPath() {
		case "/kb/status":
			w.Header().Set("Content-Type", "text/plain")
			_, _ = w.Write([]byte("all systems go"))
		case "/kb/articles/a%2Fb":
			jsonReply(200, map[string]any{"title": "slashes", "body": "..."})(w, r)
		default:
			http.NotFound(w, r)
		}
	})
	cfg := "version: 1\nbackends:\n  kb:\n    kind: http\n    base_url: " + api.URL + "/kb\n" +
		"resources:\n  - uri: kb://status\n    name: status\n    mime_type: text/plain\n    handler: {backend: kb, path: /status}\n" +
		"resource_templates:\n  - uri_template: kb://articles/{slug}\n    name: article\n" +
		"    handler:\n      backend: kb\n      path: /articles/${{ args.slug }}\n      result: ${{ response.body }}\n"
	cs := handlertest.Client(t, build(t, cfg))
	for _, tt := range []struct {
		uri  string
		want *mcp.ResourceContents
	}{
		{"kb://status", &mcp.ResourceContents{URI: "kb://status", MIMEType: "text/plain", Text: "all systems go"}},
		{"kb://articles/a%2Fb", &mcp.ResourceContents{URI: "kb://articles/a%2Fb", MIMEType: "application/json", Text: `{"body":"...","title":"slashes"}`}},
	} {
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: tt.uri})
		if err != nil {
			t.Fatalf("reading %s: %v", tt.uri, err)
		}
		if diff := cmp.Diff([]*mcp.ResourceContents{tt.want}, res.Contents); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.uri, diff)
		}
	}
	if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "kb://articles/missing"}); err == nil {
		t.Error("reading a missing article succeeded")
	}
}
