//go:build unix

package load

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestInclude loads a config split over files: every file follows the
// file that includes it, globs in lexical order, each file once, and an
// included file's problems at its own lines.
func TestInclude(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{
		"main.yaml":        "version: 1\ninclude: [tools/*.yaml, \"${PART:-shared}.yaml\"]\nserver: {name: main}\n",
		"tools/b.yaml":     "version: 1\ninclude: [../shared.yaml]\ntools:\n  - {name: b, description: B., content: [{text: b}]}\n",
		"tools/a.yaml":     "version: 1\ntools:\n  - {name: a, description: A., content: [{text: a}], tiemout: 1s}\n",
		"tools/notes.txt":  "not yaml: [",
		"shared.yaml":      "version: 1\ninclude: [nested/deep.yaml]\n",
		"nested/deep.yaml": "version: 1\nprompts:\n  - {name: p, description: P., messages: [{text: hi}]}\n",
	})
	files, ds := Files([]string{filepath.Join(dir, "main.yaml")}, Options{LookupEnv: envMap(nil)})
	var got []string
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f.Path)
		got = append(got, rel)
	}
	want := []string{"main.yaml", "tools/a.yaml", "tools/b.yaml", "shared.yaml", "nested/deep.yaml"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("files (-want +got):\n%s", diff)
	}
	if len(ds) != 1 {
		t.Errorf("want one diagnostic, got %v", ds)
	}
	wantDiag(t, ds, filepath.Join(dir, "tools", "a.yaml")+":3:54: tools[0]: unknown field \"tiemout\"")
}

// TestIncludeErrors: each wrong include is an error at its entry, with a
// hint; odd files are refused without blocking.
func TestIncludeErrors(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{
		"self.yaml":   "version: 1\ninclude: [self.yaml]\n",
		"a.yaml":      "version: 1\ninclude: [b.yaml]\n",
		"b.yaml":      "version: 1\n\ninclude:\n  - a.yaml\n",
		"bad.yaml":    "version: 1\ninclude: [broken.yaml]\n",
		"broken.yaml": "version: 1\ntools: {\n",
		"sub/x.yaml":  "version: 1\n",
	})
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.yaml")
	if err := os.WriteFile(huge, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, 1<<30); err != nil { // sparse: nothing is written
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, config, want string }{
		{"self", "@self.yaml", "self.yaml:2:11: include[0]: include cycle: {SELF} → {SELF}; a file cannot include itself"},
		{"cycle", "@a.yaml", "b.yaml:4:5: include[0]: include cycle: {A} → {B} → {A}"},
		{"missing", "include: [nope.yaml]", "mcpgen.yaml:2:11: include[0]: {DIR}/nope.yaml: cannot read file: no such file or directory; paths start from the directory of the including file"},
		{"no match", "include: [\"tools/*.yaml\"]", `mcpgen.yaml:2:11: include[0]: "tools/*.yaml" matches no file; paths start from the directory of`},
		{"bad glob", "include: [\"[a-\"]", `mcpgen.yaml:2:11: include[0]: "[a-" is not a valid glob`},
		{"directory", "include: [sub]", "include[0]: {DIR}/sub: cannot read file: not a regular file (a directory); include the files in it with a glob: sub/*.yaml"},
		{"fifo", "include: [fifo.yaml]", "include[0]: {DIR}/fifo.yaml: cannot read file: not a regular file (a named pipe)"},
		{"device", "include: [/dev/zero]", "include[0]: /dev/zero: cannot read file: not a regular file"},
		{"huge", "include: [huge.yaml]", "include[0]: {DIR}/huge.yaml: cannot read file: file too large"},
		{"unset variable", "include: [\"${PART}.yaml\"]", "mcpgen.yaml:2:12: include[0]: ${PART} is not set and has no default"},
		{"not a list", "include: x.yaml", "mcpgen.yaml:2:10: include: expected a list"},
		{"syntax error inside", "include: [broken.yaml]", "broken.yaml:2:"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ds := loadIn(t, dir, tt.config, nil)
			r := strings.NewReplacer("{DIR}", dir, "{SELF}", filepath.Join(dir, "self.yaml"),
				"{A}", filepath.Join(dir, "a.yaml"), "{B}", filepath.Join(dir, "b.yaml"))
			wantDiag(t, ds, r.Replace(tt.want))
		})
	}
}
