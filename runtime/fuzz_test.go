package runtime

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// fuzzEnv is the environment fuzzed configs are loaded with.
var fuzzEnv = map[string]string{"HOST": "api.example.com", "EMPTY": "", "N": "3", "Ü": "x"}

// addSeeds adds every file matching the patterns to f's corpus.
func addSeeds(f *testing.F, patterns ...string) {
	for _, p := range patterns {
		paths, _ := filepath.Glob(p)
		for _, path := range paths {
			data, err := os.ReadFile(path)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
}

// FuzzLoad loads and builds arbitrary bytes: it never panics, every
// diagnostic points at a line of the file (and a column on that line), and a
// config that loads cleanly still does after the YAML is re-marshalled.
func FuzzLoad(f *testing.F) {
	addSeeds(f, filepath.Join("..", "examples", "*.yaml"), filepath.Join("..", "examples", "*", "*.yaml"),
		filepath.Join("testdata", "diag", "*.yaml"))
	for _, s := range []string{fullConfig, resourceConfig, argsConfig, outputConfig, "version: 1\n", "{}", "[", "\t"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var ds Diagnostics
		file := LoadBytes("fuzz.yaml", data, LoadOptions{LookupEnv: envMap(fuzzEnv)}, &ds)
		if file != nil {
			srv, bds := Build([]*File{file}, BuildOptions{Registry: testRegistry(nil)})
			if srv != nil {
				srv.MCP() // registration must not panic either
				srv.Close()
			}
			ds = append(ds, bds...)
		}
		lines := bytes.Split(data, []byte("\n"))
		for _, d := range ds {
			checkPosition(t, d, lines)
		}
		if file != nil && ds.Errors() == 0 {
			reloads(t, file)
		}
	})
}

// checkPosition fails unless d lies inside the file.
func checkPosition(t *testing.T, d Diagnostic, lines [][]byte) {
	t.Helper()
	if d.Line < 1 || d.Line > len(lines)+1 || d.Col < 0 {
		t.Fatalf("diagnostic outside the file (%d lines): %s", len(lines), d)
	}
	if d.Col > 0 && d.Line <= len(lines) && utf8.Valid(lines[d.Line-1]) {
		if n := utf8.RuneCount(lines[d.Line-1]); d.Col > n+1 {
			t.Fatalf("diagnostic at column %d of a line of %d characters: %s\n%q", d.Col, n, d, lines[d.Line-1])
		}
	}
}

// reloads re-marshals a clean file's YAML and loads it again.
func reloads(t *testing.T, file *File) {
	t.Helper()
	out, err := yaml.Marshal(file.Root)
	if err != nil {
		return // yaml.v3 cannot write every tree it reads
	}
	var ds Diagnostics
	LoadBytes("again.yaml", out, LoadOptions{LookupEnv: envMap(fuzzEnv)}, &ds)
	if ds.Errors() > 0 {
		t.Fatalf("a clean config does not load after re-marshalling:\n%s\n%v", out, ds)
	}
}

// FuzzExpand expands arbitrary text: it never panics, every error points
// inside the scalar, text without a reference is unchanged and every value
// it substituted came from the environment.
func FuzzExpand(f *testing.F) {
	for _, s := range []string{"", "plain", "${HOST}", "a ${HOST:-x} b", "${NOPE}", "${NOPE:-d}", "$${HOST}", "${{ args.x }}",
		"${{ x", "${", "${BAD NAME}", "$$${HOST}", "${EMPTY:-e}", "Données ${N}", "${Ü}", "${{ }} ${HOST} }}"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, s string, skip bool) {
		out, refs, errs := expand(s, envMap(fuzzEnv), skip)
		used := values(refs)
		for _, r := range refs {
			if r.off < 0 || !strings.HasPrefix(s[r.off:], "${"+r.name) {
				t.Errorf("expand(%q): reference %s at offset %d is not there", s, r.name, r.off)
			}
		}
		if !strings.Contains(s, "${") && out != s {
			t.Errorf("expand(%q) = %q without any reference", s, out)
		}
		for _, e := range errs {
			if e.off < 0 || e.off >= len(s) || !strings.HasPrefix(s[e.off:], "${") {
				t.Errorf("expand(%q): error at offset %d is not at a ${ inside the scalar: %s", s, e.off, e.msg)
			}
		}
		for _, u := range used {
			if u != fuzzEnv["HOST"] && u != fuzzEnv["N"] && u != fuzzEnv["Ü"] {
				t.Errorf("expand(%q) used %q, which is not in the environment", s, u)
			}
		}
		// at the diagnostic level, the column lies on the scalar's line
		line := "k: " + strings.NewReplacer("\n", " ", "\r", " ").Replace(s)
		var n yaml.Node
		if yaml.Unmarshal([]byte(line), &n) != nil || len(n.Content) == 0 || len(n.Content[0].Content) < 2 {
			return
		}
		v := n.Content[0].Content[1]
		if v.Kind != yaml.ScalarNode || v.Line != 1 {
			return
		}
		_, _, errs = expand(v.Value, envMap(fuzzEnv), skip)
		var ds Diagnostics
		d := diags{file: "f", list: &ds, src: []byte(line)}
		for _, e := range errs {
			d.add(Error, v, e.off, "k", e.msg, "")
		}
		for _, diag := range ds {
			checkPosition(t, diag, [][]byte{[]byte(line)})
		}
	})
}
