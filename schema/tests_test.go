package schema

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/runtime/configtest"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestTestsSchema: the committed schema of test files is current, and
// every example's tests are valid against it; a mistake is not.
func TestTestsSchema(t *testing.T) {
	got, err := GenerateTests(&configtest.File{}, "..")
	if err != nil {
		t.Fatal(err)
	}
	committed, _ := os.ReadFile("mcpgen-test.schema.json")
	if !bytes.Equal(got, committed) {
		t.Fatalf("schema/mcpgen-test.schema.json is stale: run `go generate ./schema`\n(-committed +generated):\n%s",
			cmp.Diff(string(committed), string(got)))
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(TestsID, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(TestsID)
	if err != nil {
		t.Fatalf("the schema of test files does not compile: %v", err)
	}
	files, _ := filepath.Glob("../examples/*/*.test.yaml")
	if len(files) == 0 {
		t.Fatal("no example tests")
	}
	for _, f := range files {
		data, _ := os.ReadFile(f)
		if err := s.Validate(instance(t, string(data))); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	bad := "tests:\n  - name: a\n    call: x\n    read: y\n    expect: {txt: {}}\n"
	if err := s.Validate(instance(t, bad)); err == nil {
		t.Error("a case with both call and read and an unknown key is valid")
	}
}
