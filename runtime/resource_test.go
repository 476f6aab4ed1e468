package runtime

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime/content"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
)

const resourceConfig = `version: 1
resources:
  - uri: docs://hello
    name: hello
    text: "Hello from {{ \"mcpgen\" | upper }}"
  - uri: docs://logo
    name: logo
    mime_type: image/png
    blob: iVBORw==
  - uri: docs://readme
    name: readme
    file: README.md
    root: files
resource_templates:
  - uri_template: docs://pages/{name}
    name: pages
    text: "Page {{ .args.name }}"
  - uri_template: "files://{+path}"
    name: files
    file: "{{ .args.path }}"
    root: files
  - uri_template: "raw://{name}"
    name: raw
    file: "{{ .args.name }}"
    root: files
`

// resourceServer builds resourceConfig in a directory holding files/ (the
// root), a secret beside it and a symbolic link from inside the root out.
func resourceServer(t *testing.T) (*Server, string) {
	t.Helper()
	dir := writeFiles(t, map[string]string{
		"mcpgen.yaml":       resourceConfig,
		"files/README.md":   "# Read me",
		"files/sub/a.json":  `{"a":1}`,
		"files/sub/img.png": "PNG",
		"secret.txt":        "top secret",
	})
	if err := os.Symlink(filepath.Join(dir, "secret.txt"), filepath.Join(dir, "files", "escape.txt")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if err := os.Symlink(dir, filepath.Join(dir, "files", "updir")); err != nil {
		t.Fatal(err)
	}
	srv, ds := Compile([]string{filepath.Join(dir, "mcpgen.yaml")}, load.Options{}, BuildOptions{Registry: testRegistry(nil)})
	if ds.Errors() > 0 {
		t.Fatal(ds)
	}
	t.Cleanup(func() { srv.Close() })
	return srv, dir
}

// readURI reads uri the way resources/read does: through the resource or
// template it matches.
func readURI(t *testing.T, srv *Server, uri string) (*mcp.ReadResourceResult, error) {
	t.Helper()
	for _, r := range srv.plan.Resources {
		if r.Def.URI == uri {
			return srv.read(context.Background(), r, &mcp.ReadResourceRequest{Params: &mcp.ReadResourceParams{URI: uri}})
		}
	}
	for _, r := range srv.plan.Templates {
		if r.Match.Match(uri) != nil {
			return srv.read(context.Background(), r, &mcp.ReadResourceRequest{Params: &mcp.ReadResourceParams{URI: uri}})
		}
	}
	t.Fatalf("no resource matches %s", uri)
	return nil, nil
}

func TestResourceRead(t *testing.T) {
	t.Parallel()
	srv, _ := resourceServer(t)
	for _, tt := range []struct {
		uri  string
		want *mcp.ResourceContents
	}{
		{"docs://hello", &mcp.ResourceContents{URI: "docs://hello", MIMEType: "text/plain", Text: "Hello from MCPGEN"}},
		{"docs://logo", &mcp.ResourceContents{URI: "docs://logo", MIMEType: "image/png", Blob: []byte{0x89, 'P', 'N', 'G'}}},
		{"docs://readme", &mcp.ResourceContents{URI: "docs://readme", MIMEType: "text/markdown; charset=utf-8", Text: "# Read me"}},
		{"docs://pages/intro", &mcp.ResourceContents{URI: "docs://pages/intro", MIMEType: "text/plain", Text: "Page intro"}},
		{"files://sub/a.json", &mcp.ResourceContents{URI: "files://sub/a.json", MIMEType: "application/json", Text: `{"a":1}`}},
		{"files://sub/img.png", &mcp.ResourceContents{URI: "files://sub/img.png", MIMEType: "image/png", Blob: []byte("PNG")}},
	} {
		t.Run(tt.uri, func(t *testing.T) {
			res, err := readURI(t, srv, tt.uri)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]*mcp.ResourceContents{tt.want}, res.Contents); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestResourceRootConfinement checks that a file-backed resource never
// reads outside its root.
func TestResourceRootConfinement(t *testing.T) {
	t.Parallel()
	srv, dir := resourceServer(t)
	for _, tt := range []struct{ name, uri string }{
		{"dot dot", "files://../secret.txt"},
		{"dot dot inside", "files://sub/../../secret.txt"},
		{"absolute", "files://" + filepath.Join(dir, "secret.txt")},
		{"symlink to a file outside", "files://escape.txt"},
		{"symlink to a directory outside", "files://updir/secret.txt"},
		{"escaped dot dot", "raw://..%2Fsecret.txt"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := readURI(t, srv, tt.uri)
			if err == nil {
				t.Fatalf("read %s: got %+v", tt.uri, res.Contents[0])
			}
			if strings.Contains(err.Error(), "top secret") {
				t.Errorf("the error leaks the file: %v", err)
			}
		})
	}
	// a missing file is "resource not found"
	_, err := readURI(t, srv, "files://nope.txt")
	var je *jsonrpc.Error
	if !errors.As(err, &je) || je.Code != mcp.CodeResourceNotFound {
		t.Errorf("missing file: want resource not found, got %v", err)
	}
}

func TestResourceTemplateVariables(t *testing.T) {
	t.Parallel()
	srv, _ := resourceServer(t)
	res, err := readURI(t, srv, "docs://pages/a%20b")
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Contents[0].Text; got != "Page a b" {
		t.Errorf("text = %q, want the variable bound and decoded", got)
	}
}

// TestFileType checks that a resource read from a file and a file embedded
// in content are typed alike: by the given type, else by the extension,
// else as text only when the bytes are UTF-8.
func TestFileType(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		mimeType, name, data string
		want                 string
		text                 bool
	}{
		{"", "a.json", `{}`, "application/json", true},
		{"", "a.png", "PNG", "image/png", false},
		{"text/markdown", "a.bin", "# hi", "text/markdown", true},
		{"", "notes.unknown-ext", "plain words", "text/plain", true},
		{"", "blob.unknown-ext", "\xff\xfe\x00", "application/octet-stream", false},
	} {
		got, text := content.FileType(tt.mimeType, tt.name, []byte(tt.data))
		if got != tt.want || text != tt.text {
			t.Errorf("content.FileType(%q, %q) = %q, text %v; want %q, text %v", tt.mimeType, tt.name, got, text, tt.want, tt.text)
		}
	}
}

// TestResourceFileChecked: a resource's fixed file is checked when the
// config builds by the rule reading it follows: missing, or a symbolic
// link leading out of its root, is an error at the field (validate said
// ok, and the client got "Resource not found"); a file that is there is
// reported as referenced, so that pack bundles it.
func TestResourceFileChecked(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("outside"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := writeFiles(t, map[string]string{"docs/guide.md": "# guide", "mcpgen.yaml": `version: 1
resources:
  - {uri: "docs://guide", name: guide, file: docs/guide.md}
  - {uri: "docs://missing", name: missing, file: docs/missing.md}
  - {uri: "docs://link", name: link, file: docs/link.md}
  - {uri: "docs://up", name: up, file: ../secret.txt}
`})
	if err := os.Symlink(outside, filepath.Join(dir, "docs", "link.md")); err != nil {
		t.Fatal(err)
	}
	var referenced []string
	_, ds := Compile([]string{filepath.Join(dir, "mcpgen.yaml")}, load.Options{LookupEnv: envMap(nil)},
		BuildOptions{Registry: testRegistry(nil), Referenced: func(p string) { referenced = append(referenced, p) }})
	wantDiag(t, ds, "resources[1].file", `"docs/missing.md" does not exist in`)
	wantDiag(t, ds, "resources[2].file", `"docs/link.md" leads outside the resource's root`)
	wantDiag(t, ds, "resources[3].file", `"../secret.txt" is outside the resource's root`)
	if ds.Errors() != 3 {
		t.Errorf("%d errors, want 3:\n%v", ds.Errors(), ds)
	}
	if !slices.Contains(referenced, filepath.Join(dir, "docs/guide.md")) {
		t.Errorf("referenced %q lacks docs/guide.md", referenced)
	}
}
