package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/types"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"gopkg.in/yaml.v3"
)

// expressionsDoc is the expression language's page.
const expressionsDoc = "../../docs/expressions.md"

// fences returns the bodies of the fenced blocks of a language in doc.
func fences(doc, lang string) []string {
	var out []string
	for _, block := range strings.Split(doc, "```"+lang+"\n")[1:] {
		text, _, _ := strings.Cut(block, "```")
		out = append(out, text)
	}
	return out
}

// TestExpressionsDocConfigs boots the whole configs of the expressions
// page, as the README's are.
func TestExpressionsDocConfigs(t *testing.T) {
	data, err := os.ReadFile(expressionsDoc)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, text := range fences(string(data), "yaml") {
		if !strings.HasPrefix(text, "version: 1\n") {
			t.Errorf("a yaml block that is not a whole config:\n%s", text)
			continue
		}
		n++
		path := filepath.Join(t.TempDir(), "mcpgen.yaml")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		boot(t, path)
	}
	if n == 0 {
		t.Fatal("the page shows no config")
	}
}

// exampleLine splits an expr example into the expression and the JSON of
// its value: the last "#" after two spaces or more.
var exampleLine = regexp.MustCompile(`^(.*\S)\s{2,}#\s(.*)$`)

// TestExpressionsDocExamples evaluates every line of the page's expr
// blocks against its sample values, typed as a call types them, and
// compares the value with the one the page gives; every builtin of expr
// must be shown.
func TestExpressionsDocExamples(t *testing.T) {
	data, err := os.ReadFile(expressionsDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	_, sampleText, _ := strings.Cut(doc, "<!-- sample -->\n```json\n")
	sampleText, _, _ = strings.Cut(sampleText, "```")
	dec := json.NewDecoder(strings.NewReader(sampleText))
	dec.UseNumber()
	var sample map[string]any
	if err := dec.Decode(&sample); err != nil {
		t.Fatalf("sample values: %v", err)
	}
	handlers.Numbers(sample)
	args := sample["args"].(map[string]any)
	args["price"] = float64ish(args["price"])
	vars := map[string]any{"args": args, "response": sample["response"], "steps": sample["steps"], "auth": sample["auth"]}
	envVars := sample["env"].(map[string]any)
	env := types.Map{
		"args": eval.TypeOf(map[string]any{"type": "object", "properties": map[string]any{
			"name": map[string]any{"type": "string"}, "id": map[string]any{"type": "string"},
			"limit": map[string]any{"type": "integer"}, "price": map[string]any{"type": "number"},
			"tags": map[string]any{"type": "array"}, "formal": map[string]any{"type": "boolean"},
			"email": map[string]any{"type": "string"}, "nickname": map[string]any{"type": "string"}}}),
		"response": types.Map{"status": types.Int64, "headers": types.Map{types.Extra: types.String}, "body": types.Any},
		"steps":    types.Map{"choice": types.Map{types.Extra: types.Any}, "maybe": types.Map{types.Extra: types.Any}},
		"auth": types.Map{"subject": types.String, "client_id": types.String, "scopes": types.TypeOf([]string{}),
			"claims": types.Map{types.Extra: types.Any, "email": types.String}},
	}
	opts := eval.Options{Env: func(name string) (string, bool) {
		v, ok := envVars[name].(string)
		return v, ok
	}}
	n := 0
	for _, block := range fences(doc, "expr") {
		for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
			m := exampleLine.FindStringSubmatch(line)
			if m == nil {
				t.Errorf("%q: want EXPRESSION  # VALUE", line)
				continue
			}
			n++
			src, want := m[1], m[2]
			node := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "${{ " + src + " }}", Line: 1, Column: 1}
			v, errs := eval.Compile(node, env, opts)
			if len(errs) > 0 {
				t.Errorf("%s: %v", src, errs[0].Msg)
				continue
			}
			got, err := v.Eval(vars)
			if err != nil {
				t.Errorf("%s: %v", src, err)
				continue
			}
			if g, w := canonical(t, src, got), canonicalText(t, want); g != w {
				t.Errorf("%s\n got %s\nwant %s", src, g, w)
			}
		}
	}
	if n < 100 {
		t.Errorf("only %d examples", n)
	}
	for _, f := range builtin.Builtins {
		if !strings.Contains(doc, f.Name+"(") {
			t.Errorf("builtin %s is not shown", f.Name)
		}
	}
}

// float64ish makes a whole number a float, as an argument of type number is.
func float64ish(x any) any {
	if i, ok := x.(int64); ok {
		return float64(i)
	}
	return x
}

func canonical(t *testing.T, src string, x any) string {
	data, err := json.Marshal(x)
	if err != nil {
		t.Errorf("%s: %v", src, err)
		return ""
	}
	return canonicalText(t, string(data))
}

func canonicalText(t *testing.T, s string) string {
	var x any
	if err := json.Unmarshal([]byte(s), &x); err != nil {
		t.Errorf("%s: %v", s, err)
		return s
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(x)
	return strings.TrimSpace(b.String())
}
