package load

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// envMap is a LookupEnv over a fixed map.
func envMap(m map[string]string) LookupEnv {
	return func(name string) (string, bool) {
		v, ok := m[name]
		return v, ok
	}
}

// loadString loads one config from text, with env as the environment.
func loadString(t testing.TB, text string, env map[string]string) (*File, Diagnostics) {
	t.Helper()
	f, ds := Bytes("mcpgen.yaml", []byte(text), Options{LookupEnv: envMap(env)})
	return f, ds.Sort()
}

// writeFiles writes name → contents under a new temporary directory and
// returns it.
func writeFiles(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// wantDiag fails unless some diagnostic's text contains every one of parts.
func wantDiag(t testing.TB, ds Diagnostics, parts ...string) {
	t.Helper()
	for _, d := range ds {
		s := d.String()
		all := true
		for _, p := range parts {
			all = all && strings.Contains(s, p)
		}
		if all {
			return
		}
	}
	t.Errorf("no diagnostic contains %q; got:\n%v", parts, ds)
}

// values returns the values refs took from the environment: the values
// the tests expect expansion to have used.
func values(refs []envRef) []string {
	var out []string
	for _, r := range refs {
		if r.value != "" {
			out = append(out, r.value)
		}
	}
	return out
}
