package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestDockerfileBasesPinned checks that every base image the Dockerfile
// names by default is pinned by digest, and that each stage's FROM reads
// one of those build arguments (so that CI's stand-ins replace them).
func TestDockerfileBasesPinned(t *testing.T) {
	data, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	pinned := regexp.MustCompile(`^[a-z0-9./-]+:[a-z0-9.-]+@sha256:[0-9a-f]{64}$`)
	args := map[string]bool{}
	froms := 0
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 2 && f[0] == "ARG" && strings.HasSuffix(strings.SplitN(f[1], "=", 2)[0], "_IMAGE"):
			name, value, _ := strings.Cut(f[1], "=")
			if !pinned.MatchString(value) {
				t.Errorf("ARG %s defaults to %q: not pinned by tag and digest", name, value)
			}
			args[name] = true
		case len(f) >= 2 && f[0] == "FROM":
			froms++
			if name := strings.TrimSuffix(strings.TrimPrefix(f[1], "${"), "}"); !args[name] {
				t.Errorf("FROM %s: not one of the pinned image arguments %v", f[1], args)
			}
		}
	}
	if froms == 0 {
		t.Error("the Dockerfile has no FROM")
	}
}
