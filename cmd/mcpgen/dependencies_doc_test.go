package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestDependenciesDoc checks that every direct dependency in go.mod has its
// line in docs/dependencies.md, and that the page names none that is gone.
func TestDependenciesDoc(t *testing.T) {
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../../docs/dependencies.md")
	if err != nil {
		t.Fatal(err)
	}
	direct := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\t(\S+) v\S+$`).FindAllStringSubmatch(string(mod), -1) {
		direct[m[1]] = true
		if !strings.Contains(string(doc), "`"+m[1]+"`") && !strings.Contains(string(doc), "`"+shortName(m[1])+"`") {
			t.Errorf("docs/dependencies.md does not say why %s is a dependency", m[1])
		}
	}
	for _, row := range regexp.MustCompile("(?m)^\\| `([^`]+)`").FindAllStringSubmatch(string(doc), -1) {
		if !direct[row[1]] {
			t.Errorf("docs/dependencies.md has a line for %s, which go.mod does not require directly", row[1])
		}
	}
}

// shortName is a module path as the page may write it after the first of
// a group: otel/trace for go.opentelemetry.io/otel/trace.
func shortName(path string) string {
	_, rest, _ := strings.Cut(path, "go.opentelemetry.io/")
	return rest
}
