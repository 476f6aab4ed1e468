package input

import (
	"strings"
	"testing"
)

// TestCompileOnce: the same JSON compiles once, and two tools given the same
// schema share it; a different JSON is a schema of its own.
func TestCompileOnce(t *testing.T) {
	sc := NewCompiler()
	raw := `{"type":"object","properties":{"id":{"type":"integer"}}}`
	a, err := sc.Compile("a/input", []byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := sc.Compile("b/input", []byte(raw))
	c, _ := sc.Compile("c/input", []byte(`{"type":"object"}`))
	if a != b {
		t.Error("the same schema compiled twice")
	}
	if a == c {
		t.Error("different schemas share one compilation")
	}
	if sc.n != 2 {
		t.Errorf("the validator compiled %d schemas, want 2", sc.n)
	}
	// an error is remembered too, and given to every tool with that schema
	bad := `{"type":"object","properties":{"id":{"type":"integr"}}}`
	_, err1 := sc.Compile("d/input", []byte(bad))
	_, err2 := sc.Compile("e/input", []byte(bad))
	if err1 == nil || err2 == nil || err1.Error() != err2.Error() {
		t.Errorf("errors of the same schema: %v, %v", err1, err2)
	}
}

// TestLazyCompiler: with Lazy, a schema that does not compile is accepted
// when the server builds, refuses every call, and CompileAll names it;
// a good one validates as usual. Without Lazy, the same schema is an error.
func TestLazyCompiler(t *testing.T) {
	good := `{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}`
	bad := `{"type":"object","properties":{"id":{"type":"integr"}}}`
	if _, err := NewCompiler().Compile("bad/input", []byte(bad)); err == nil {
		t.Fatal("the eager compiler accepts a broken schema")
	}
	sc := NewCompiler()
	sc.Lazy = true
	g, err := sc.Compile("good/input", []byte(good))
	if err != nil {
		t.Fatal(err)
	}
	b, err := sc.Compile("bad/input", []byte(bad))
	if err != nil {
		t.Fatalf("lazy compile of a broken schema: %v", err)
	}
	if sc.n != 0 {
		t.Errorf("the lazy compiler compiled %d schemas before any use", sc.n)
	}
	if err := b.Validate(map[string]any{"id": 1}); err == nil || !strings.Contains(err.Error(), "does not compile") {
		t.Errorf("a call against the broken schema: %v", err)
	}
	if err := g.Validate(map[string]any{}); err == nil {
		t.Error("the good schema accepts a call without its required argument")
	}
	if g.Doc()["required"] == nil {
		t.Errorf("the good schema's document: %v", g.Doc())
	}
	errs := sc.CompileAll()
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "bad/input") {
		t.Errorf("CompileAll = %v, want one error naming bad/input", errs)
	}
}
