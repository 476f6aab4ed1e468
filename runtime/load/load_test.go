package load

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/spec"
)

func TestLoadDecodes(t *testing.T) {
	t.Parallel()
	text := `version: 1
server:
  name: ${NAME}
  title: ${TITLE:-Default title}
  instructions: "literal $${NAME}"
tools:
  - name: t
    description: d
    args:
      - name: n
        type: integer
        required: true
        minimum: 1
        default: 5
    handler:
      kind: echo
      result: ${{ args.n }}
      url: "https://${HOST}/x/${{ args.n }}"
`
	f, ds := loadString(t, text, map[string]string{"NAME": "demo", "HOST": "api.example.com"})
	if len(ds) > 0 {
		t.Fatalf("unexpected diagnostics:\n%v", ds)
	}
	want := spec.Server{Name: "demo", Title: "Default title", Instructions: "literal ${NAME}"}
	if diff := cmp.Diff(want, f.Config.Server); diff != "" {
		t.Errorf("server (-want +got):\n%s", diff)
	}
	a := f.Config.Tools[0].Args[0]
	if a.Type != "integer" || !a.Required || *a.Minimum != 1 || a.Default != int64(5) {
		t.Errorf("arg = %+v", a)
	}
	h := f.Config.Tools[0].Handler
	if h.Kind != "echo" {
		t.Errorf("kind = %q", h.Kind)
	}
	// expressions are left for the build; environment references in the
	// handler's body are expanded, keeping positions
	result, url := Field(h.Body, "result"), Field(h.Body, "url")
	if result.Value != "${{ args.n }}" || url.Value != "https://api.example.com/x/${{ args.n }}" {
		t.Errorf("handler body: result %q, url %q", result.Value, url.Value)
	}
	if url.Line != 18 || url.Column != 12 {
		t.Errorf("url at %d:%d, want 18:12", url.Line, url.Column)
	}
	if diff := cmp.Diff([]string{"demo", "api.example.com"}, f.Secrets.Values()); diff != "" {
		t.Errorf("secrets (-want +got):\n%s", diff)
	}
}

// TestLoadEnvTyping checks that a plain scalar made of an environment
// reference is typed by its value, as YAML would type it.
func TestLoadEnvTyping(t *testing.T) {
	t.Parallel()
	text := "version: ${V}\ntools:\n  - name: t\n    description: d\n    args:\n      - name: a\n        default: ${D}\n        required: ${R}\n    content: [{text: x}]\n"
	f, ds := loadString(t, text, map[string]string{"V": "1", "D": "42", "R": "true"})
	if len(ds) > 0 {
		t.Fatalf("unexpected diagnostics:\n%v", ds)
	}
	a := f.Config.Tools[0].Args[0]
	if f.Config.Version != 1 || a.Default != int64(42) || !a.Required {
		t.Errorf("version %d, default %#v, required %v", f.Config.Version, a.Default, a.Required)
	}
	quoted := "version: 1\ntools:\n  - name: t\n    description: d\n    args:\n      - name: a\n        default: \"${D}\"\n    content: [{text: x}]\n"
	f, _ = loadString(t, quoted, map[string]string{"D": "42"})
	if got := f.Config.Tools[0].Args[0].Default; got != "42" {
		t.Errorf("a quoted reference yields %#v, want the string \"42\"", got)
	}
}

func TestLoadSkipEnv(t *testing.T) {
	t.Parallel()
	text := "version: 1\nserver:\n  name: ${UNSET_NAME}\n  title: ${UNSET_TITLE:-t}\n  version: ${BAD NAME}\n"
	f, ds := Bytes("c.yaml", []byte(text), Options{LookupEnv: envMap(nil), SkipEnv: true})
	// an unset variable is not reported, a malformed reference still is
	if len(ds) != 1 || !strings.Contains(ds[0].Message, "invalid environment reference") {
		t.Errorf("want only the malformed reference, got:\n%v", ds)
	}
	if f.Config.Server.Name != "" || f.Config.Server.Title != "t" {
		t.Errorf("server = %+v", f.Config.Server)
	}
	_, ds = Bytes("c.yaml", []byte(text), Options{LookupEnv: envMap(nil)})
	wantDiag(t, ds, "c.yaml:3:9: server.name: ${UNSET_NAME} is not set and has no default")
}

func TestLoadErrorsHaveNoGoTypes(t *testing.T) {
	t.Parallel()
	text := `version: 1.5
server: [a]
tools:
  - name: {a: b}
    description: 3
    args:
      - name: a
        minimum: lots
        max_length: 1.5
        required: 1
        enum: x
    content: true
    annotations:
      read_only: maybe
`
	_, ds := loadString(t, text, nil)
	if len(ds) < 8 {
		t.Errorf("want a diagnostic per mistake, got:\n%v", ds)
	}
	goType := regexp.MustCompile(`\b(u?int(8|16|32|64)?|float(32|64)|bool|string|interface|struct|spec\.\w+)\b|\[\]|map\[`)
	for _, d := range ds {
		// "the string \"x\"" is English; a bare "string" would be Go
		if m := goType.FindString(strings.ReplaceAll(d.Message, "the string ", "")); m != "" {
			t.Errorf("diagnostic names a Go type (%q): %s", m, d)
		}
	}
	wantDiag(t, ds, "mcpgen.yaml:1:10: version: expected an integer, got a number")
	wantDiag(t, ds, "tools[0].args[0].minimum: expected a number")
	wantDiag(t, ds, "tools[0].args[0].required: expected true or false, got an integer")
	wantDiag(t, ds, "tools[0].content: expected a list, got a boolean")
}

func TestLoadFiles(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{"ok.yaml": "version: 1\n"})
	files, ds := Files([]string{filepath.Join(dir, "ok.yaml"), filepath.Join(dir, "missing.yaml")}, Options{})
	if len(files) != 1 || files[0].Dir != dir {
		t.Errorf("files = %v", files)
	}
	want := Diagnostics{{File: filepath.Join(dir, "missing.yaml"), Message: "cannot read file: no such file or directory",
		Severity: Error}}
	if diff := cmp.Diff(want, ds); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

// TestLoadAliasBomb checks that nested aliases cannot make loading expand a
// small file into millions of values.
func TestLoadAliasBomb(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("version: 1\nserver:\n  instructions: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "  a%d: &a%d [", i, i)
		for j := range 10 {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	f, ds := loadString(t, b.String(), nil)
	if f != nil {
		t.Fatal("a file expanding to 10^10 values loaded")
	}
	wantDiag(t, ds, "mcpgen.yaml:1:1: aliases expand the file to more than 1048576 values")
	// anchors used a reasonable number of times are fine
	_, ds = loadString(t, "version: 1\nserver:\n  name: &n demo\n  title: *n\n", nil)
	if len(ds) > 0 {
		t.Errorf("an alias is refused:\n%v", ds)
	}
}

// TestLoadRecursiveAlias checks that an alias inside the value it refers to
// is reported, not followed until the stack overflows.
func TestLoadRecursiveAlias(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"version: 1\nx: &a [*a]\n", "version: 1\nx: &a {k: *a}\n", "version: 1\nx: &a [[1, *a]]\n"} {
		f, ds := loadString(t, text, nil)
		if f != nil {
			t.Errorf("%q loaded", text)
		}
		wantDiag(t, ds, "aliases expand the file to more than")
	}
}
