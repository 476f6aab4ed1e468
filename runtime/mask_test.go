package runtime

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestCredentialsMaskedInResults checks that a secret a handler was given
// never reaches a client in a result, while other environment values do.
func TestCredentialsMaskedInResults(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{
		"mcpgen.yaml": `version: 1
tools:
  - name: text
    description: Leaks the token as text.
    handler:
      kind: echo
      result: "token=${API_TOKEN} region=${REGION}"
  - name: structured
    description: Leaks the token as data.
    handler:
      kind: echo
      result:
        token: ${API_TOKEN}
        nested: ["a ${API_TOKEN} b", 1]
        region: ${REGION}
        dsn: ${DB_URL}
resources:
  - uri: file://notes
    name: notes
    file: notes.txt
`,
		"notes.txt": "the token is tok-123456, the password hunter22",
	})
	env := envMap(map[string]string{"API_TOKEN": "tok-123456", "REGION": "eu-west-1",
		"DB_URL": "postgres://app:hunter22@db/shop"})
	srv, ds := Compile([]string{filepath.Join(dir, "mcpgen.yaml")}, load.Options{LookupEnv: env},
		BuildOptions{Registry: testRegistry(nil)})
	if ds.Errors() > 0 {
		t.Fatal(ds)
	}
	defer srv.Close()
	ctx := context.Background()

	res, err := srv.CallTool(ctx, "text", []byte(`{}`), nil)
	if err != nil || textOf(res.Content) != "token=**** region=eu-west-1" {
		t.Errorf("text result: %v %q", err, textOf(res.Content))
	}
	for range 2 { // the second call sees the same masking: nothing shared was changed
		res, err = srv.CallTool(ctx, "structured", []byte(`{}`), nil)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]any{"token": "****", "nested": []any{"a **** b", int64(1)}, "region": "eu-west-1",
			"dsn": "****"}
		if diff := cmp.Diff(want, res.StructuredContent); diff != "" {
			t.Errorf("structured content (-want +got):\n%s", diff)
		}
		if text := textOf(res.Content); strings.Contains(text, "tok-123456") || strings.Contains(text, "hunter22") {
			t.Errorf("text rendering leaks a secret: %s", text)
		}
	}

	cs := session(t, srv, "", nil, nil)
	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "file://notes"})
	if err != nil || read.Contents[0].Text != "the token is ****, the password hunter22" {
		// hunter22 alone is not a value from the environment: only the whole DSN is masked
		t.Errorf("resource: %v %+v", err, read)
	}
}

func TestMaskerCopiesWhatItChanges(t *testing.T) {
	t.Parallel()
	m := newMasker(credentials("tok-123456", "abc")) // "abc" is too short to mask
	shared := map[string]any{"a": []any{"x tok-123456"}, "b": "abc", "c": map[string]any{"d": "plain"}}
	got, changed := m.value(shared)
	if !changed {
		t.Fatal("nothing masked")
	}
	want := map[string]any{"a": []any{"x ****"}, "b": "abc", "c": map[string]any{"d": "plain"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("masked (-want +got):\n%s", diff)
	}
	if shared["a"].([]any)[0] != "x tok-123456" {
		t.Error("the original value was changed")
	}
	type row struct{ Token string }
	if got, _ := m.value([]row{{"tok-123456"}}); !cmp.Equal(got, []any{map[string]any{"Token": "****"}}) {
		t.Errorf("typed value: %#v", got)
	}
	if newMasker(credentials("abc", "")) != nil {
		t.Error("a masker for nothing to mask")
	}
}

// credentials returns what the secrets policy masks in results when the
// values come from secret-named variables.
func credentials(values ...string) []string {
	var s load.Secrets
	for _, v := range values {
		s.Add("API_TOKEN", v)
	}
	return s.Credentials()
}

// sensitive returns what the secrets policy masks in errors and logs when
// the values come from variables whose names mark no secret.
func sensitive(values ...string) []string {
	var s load.Secrets
	for _, v := range values {
		s.Add("SETTING", v)
	}
	return s.Masked()
}
