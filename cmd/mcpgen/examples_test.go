package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/handlers/handlertest"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"gopkg.in/yaml.v3"
)

// TestExamples validates every example and boots it: a go-sdk client
// initializes and lists what it serves. Variables an example reads from the
// environment get placeholder values, as a user would set them.
func TestExamples(t *testing.T) {
	paths, err := filepath.Glob("../../examples/*/mcpgen.yaml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no examples found: %v", err)
	}
	for _, p := range paths {
		t.Run(filepath.Base(filepath.Dir(p)), func(t *testing.T) {
			t.Parallel()
			boot(t, p)
		})
	}
}

// TestKubernetesConfig checks the config embedded in the Kubernetes
// manifests the same way.
func TestKubernetesConfig(t *testing.T) {
	data, err := os.ReadFile("../../deploy/kubernetes/mcpgen.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	for {
		var doc struct {
			Kind string            `yaml:"kind"`
			Data map[string]string `yaml:"data"`
		}
		if err := dec.Decode(&doc); err != nil {
			t.Fatal("no ConfigMap with mcpgen.yaml in the manifests")
		}
		if cfg, ok := doc.Data["mcpgen.yaml"]; doc.Kind == "ConfigMap" && ok {
			path := filepath.Join(t.TempDir(), "mcpgen.yaml")
			os.WriteFile(path, []byte(cfg), 0o644)
			boot(t, path)
			return
		}
	}
}

// placeholder gives every environment variable a value shaped like what it
// names, so that URLs parse and flags are booleans; MCPGEN_ENV is unset,
// so that each example boots without an overlay (its tests try them).
func placeholder(name string) (string, bool) {
	switch {
	case name == load.EnvVariable:
		return "", false
	case strings.HasSuffix(name, "_URL") || strings.HasSuffix(name, "_ISSUER") || strings.HasSuffix(name, "_AUDIENCE"):
		return "http://127.0.0.1:9", true
	case strings.Contains(name, "INSECURE"):
		return "false", true
	case strings.HasSuffix(name, "_FILE") || strings.HasSuffix(name, "_DSN") || strings.HasSuffix(name, "_PATH"):
		return "", false // left to the example's default
	}
	return "placeholder-" + strings.ToLower(name), true
}

func boot(t *testing.T, path string) {
	t.Helper()
	srv, ds := runtime.Compile([]string{path}, load.Options{LookupEnv: placeholder},
		runtime.BuildOptions{Registry: builtin.Registry()})
	if srv == nil {
		t.Fatalf("%s does not build:\n%v", path, ds)
	}
	defer srv.Close()
	ctx := context.Background()
	cs := handlertest.Connect(t, srv, mcp.NewClient(&mcp.Implementation{Name: "examples", Version: "1"}, nil), nil)
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) == 0 {
		t.Fatalf("tools/list: %v (%d tools)", err, len(tools.Tools))
	}
	for _, tl := range tools.Tools {
		if tl.Description == "" {
			t.Errorf("tool %s has no description", tl.Name)
		}
	}
	if cs.InitializeResult().Capabilities.Prompts != nil {
		if _, err := cs.ListPrompts(ctx, nil); err != nil {
			t.Errorf("prompts/list: %v", err)
		}
	}
}
