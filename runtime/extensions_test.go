package runtime

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// TestExtensionsAdvertised: an extension a feature declares is in the
// server's capabilities, and a client's declaration is found per request.
func TestExtensionsAdvertised(t *testing.T) {
	t.Parallel()
	srv := mustCompile(t, "version: 1\ntools:\n  - {name: t, description: d, content: [{text: x}]}\n", nil)
	srv.declareExtension("com.example/widgets", map[string]any{"max": 3})
	cs := session(t, srv, "", nil, nil)
	want := map[string]any{"com.example/widgets": map[string]any{"max": float64(3)}}
	if diff := cmp.Diff(want, cs.InitializeResult().Capabilities.Extensions); diff != "" {
		t.Errorf("extensions (-want +got):\n%s", diff)
	}
	caps := &mcp.ClientCapabilities{Extensions: map[string]any{"com.example/widgets": map[string]any{}}}
	if _, ok := clientExtension(caps, "com.example/widgets"); !ok {
		t.Error("the client's declaration was not found")
	}
	if _, ok := clientExtension(caps, "com.example/other"); ok {
		t.Error("an undeclared extension was found")
	}
	defer func() {
		if recover() == nil {
			t.Error("an id without a prefix was accepted")
		}
	}()
	srv.declareExtension("widgets", nil)
}
