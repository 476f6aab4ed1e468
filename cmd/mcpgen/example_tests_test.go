package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestExampleTests: every example has behaviour tests beside it, and they
// pass (the postgres example's run where MCPGEN_TEST_POSTGRES_DSN is set).
func TestExampleTests(t *testing.T) {
	configs, _ := filepath.Glob("../../examples/*/mcpgen.yaml")
	for _, c := range configs {
		if _, err := os.Stat(filepath.Join(filepath.Dir(c), "mcpgen.test.yaml")); err != nil {
			t.Errorf("%s has no tests: write them in mcpgen.test.yaml beside it", c)
		}
	}
	if dsn := os.Getenv("MCPGEN_TEST_POSTGRES_DSN"); dsn != "" {
		t.Setenv("SHOP_DSN", dsn+"&search_path=mcpgen_example_shop")
		t.Setenv("HELPDESK_DSN", dsn) // its tests load schema.sql: schema helpdesk
	}
	var out, errw bytes.Buffer
	if code := run(context.Background(), []string{"test", "../../examples/..."}, nil, &out, &errw); code != exitOK {
		t.Errorf("mcpgen test examples/... exited %d:\n%s%s", code, out.String(), errw.String())
	}
}
