package graphqlkind_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/handlers/handlertest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/load"
)

// TestExample serves examples/graphql against the directory server.
func TestExample(t *testing.T) {
	t.Parallel()
	d := newDirectory(t)
	env := map[string]string{"DIRECTORY_URL": d.URL + "/graphql", "DIRECTORY_TOKEN": testToken}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	srv, ds := runtime.Compile([]string{example + "mcpgen.yaml"}, load.Options{LookupEnv: lookup}, runtime.BuildOptions{Registry: registry()})
	if ds.Errors() > 0 || ds.Warnings() > 0 {
		t.Fatalf("the example does not build cleanly:\n%v", ds)
	}
	t.Cleanup(func() { srv.Close() })
	for _, tt := range []struct{ tool, args, want string }{
		{"get_user", `{"id": "2"}`, `"name": "Bob"`},
		{"list_users", `{"role": "ADMIN"}`, `"name": "Ann"`},
		{"user_name", `{"id": "1"}`, `"value": "Ann"`},
	} {
		res := handlertest.Call(t, context.Background(), srv, tt.tool, tt.args)
		if got := handlertest.Text(res); res.IsError || !strings.Contains(got, tt.want) {
			t.Errorf("%s: isError=%v %s, want %s", tt.tool, res.IsError, got, tt.want)
		}
	}
}

// TestREADME checks that the GraphQL config the README shows is the
// example's, word for word.
func TestREADME(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	config, err := os.ReadFile(example + "mcpgen.yaml")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(readme), "A GraphQL tool over a named backend")
	if !ok {
		t.Fatal("the README shows no GraphQL config")
	}
	_, block, _ := strings.Cut(after, "```yaml\n")
	block, _, _ = strings.Cut(block, "```")
	if !strings.Contains(string(config), block) {
		t.Errorf("the README's GraphQL config is not in %smcpgen.yaml:\n%s", example, block)
	}
}
