package load

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/runtime/load/fuzzseed"
	"gopkg.in/yaml.v3"
)

// fuzzEnv is the environment fuzzed configs are loaded with.
var fuzzEnv = map[string]string{"HOST": "api.example.com", "EMPTY": "", "N": "3", "Ü": "x"}

// FuzzBytes loads arbitrary bytes: it never panics, every diagnostic points
// at a line of the file (and a column on that line), and a config that
// loads cleanly still does after the YAML is re-marshalled. Large seeds are
// split (see fuzzseed).
func FuzzBytes(f *testing.F) {
	fuzzseed.AddFiles(f, "../../examples/*.yaml", "../../examples/*/*.yaml", "../testdata/diag/*.yaml")
	for _, s := range []string{"version: 1\n", "{}", "[", "\t", "a: &a [*a]",
		"version: 1\nenv_file: .env\ninclude: [a.yaml]\noverlays: {prod: p.yaml}\nserver: {http: {auth: {api_keys: [{name: k, key: \"${file:s:-${HOST}}\"}]}}}\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, ds := Bytes("fuzz.yaml", data, Options{LookupEnv: envMap(fuzzEnv)})
		lines := fuzzseed.Lines(data)
		for _, d := range ds {
			if d.File == "fuzz.yaml" { // not an env_file's, read from the disk
				checkPosition(t, d, lines)
			}
		}
		if file == nil || ds.Errors() > 0 {
			return
		}
		out, err := yaml.Marshal(file.Root)
		var again yaml.Node
		if err != nil || yaml.Unmarshal(out, &again) != nil {
			// yaml.v3 cannot write every tree it reads: a block scalar
			// that starts with a line break comes out badly indented
			return
		}
		if _, ds := Bytes("again.yaml", out, Options{LookupEnv: envMap(fuzzEnv)}); ds.Errors() > 0 {
			t.Fatalf("a clean config does not load after re-marshalling:\n%s\n%v", out, ds)
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

// FuzzExpand expands arbitrary text: it never panics, every error points
// inside the scalar, text without a reference is unchanged and every value
// it substituted came from the environment.
func FuzzExpand(f *testing.F) {
	for _, s := range []string{"", "plain", "${HOST}", "a ${HOST:-x} b", "${NOPE}", "${NOPE:-d}", "$${HOST}", "${{ args.x }}",
		"${{ x", "${", "${BAD NAME}", "$$${HOST}", "${EMPTY:-e}", "Données ${N}", "${Ü}", "${{ }} ${HOST} }}",
		"${file:/run/secrets/x:-${HOST}}", "${file:}", "a ${file:x} b"} {
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
		d := Reporter{file: "f", list: &ds, src: []byte(line)}
		for _, e := range errs {
			d.AtOffset(Error, v, e.off, "k", e.msg, "")
		}
		for _, diag := range ds {
			checkPosition(t, diag, [][]byte{[]byte(line)})
		}
	})
}
