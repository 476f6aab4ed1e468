package openapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/load"
	"gopkg.in/yaml.v3"
)

// TestRealDescriptions imports public API descriptions of different
// shapes (see testdata/README.md), checks that the config validates and
// boots, and that each tool's dry run sends the operation's request: its
// method, its path with the arguments in place, its query, headers and
// body.
func TestRealDescriptions(t *testing.T) {
	for _, tt := range []struct {
		file  string
		tools int
		every int // dry-run every n-th tool
	}{
		{"petstore-3.0.yaml", 20, 1},
		{"petstore-3.1.yaml", 20, 1},
		{"petstore-2.0.json", 20, 1},
		{"security-3.0.yaml", 15, 1},
		{"server-variables-3.0.yaml", 4, 1},
		{"github-api.json.gz", 1223, 7},
	} {
		t.Run(tt.file, func(t *testing.T) {
			if strings.HasPrefix(tt.file, "github") && (testing.Short() || raceEnabled) {
				t.Skip("large description: not in -short or under the race detector")
			}
			path := filepath.Join("testdata", tt.file)
			if strings.HasSuffix(path, ".gz") {
				path = gunzip(t, path)
			}
			doc, err := Load(context.Background(), path, LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			res := Convert(doc, doc.Operations(), Options{Name: "api"}, nil)
			if len(res.Tools) != tt.tools {
				t.Errorf("%d tools, want %d", len(res.Tools), tt.tools)
			}
			srv := boot(t, res)
			checked := 0
			for i, tool := range res.Tools {
				if i%tt.every == 0 {
					checkDryRun(t, srv, doc, tool)
					checked++
				}
			}
			t.Logf("%d tools, %d dry runs checked", len(res.Tools), checked)
			checkTags(t, srv, res)
		})
	}
}

// boot writes the config, sets its variables and builds the server, as
// `mcpgen serve` does before it answers.
func boot(t *testing.T, res *Result) *runtime.Server {
	t.Helper()
	out, err := Render(res.File)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "mcpgen.yaml")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, e := range res.Env {
		if e.Default == "" {
			t.Setenv(e.Name, "test-"+strings.ToLower(e.Name))
		}
	}
	srv, ds := runtime.Compile([]string{path}, load.Options{}, runtime.BuildOptions{Registry: builtin.Registry()})
	for _, d := range ds {
		// the one warning a large description gets: split it with --tags
		if d.Severity != load.Warning || d.Path != "tools" || len(res.Tools) <= 40 {
			t.Error(d)
		}
	}
	if srv == nil {
		t.Fatal("the config does not build")
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// checkDryRun calls tool with arguments made from its input schema and
// compares the request printed with the operation's.
func checkDryRun(t *testing.T, srv *runtime.Server, doc *Document, tool *Tool) {
	t.Helper()
	var schema map[string]any
	if err := get(tool.Node, "input_schema").Decode(&schema); err != nil {
		t.Fatal(err)
	}
	args := sample(schema, true).(map[string]any)
	input, _ := json.Marshal(args)
	plan, err := srv.DryRun(context.Background(), tool.Name, input)
	if err != nil && strings.Contains(err.Error(), "does not match pattern") {
		return // sample does not write text for regular expressions
	}
	if err != nil {
		t.Errorf("%s %s: %v", tool.Name, input, err)
		return
	}
	o := tool.Operation
	head, rest, _ := strings.Cut(plan, "\n")
	method, rawURL, _ := strings.Cut(head, " ")
	if method != o.Method {
		t.Errorf("%s: method %s, want %s", tool.Name, method, o.Method)
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatalf("%s: %v", tool.Name, err)
	}
	params := parameters(o)
	want := pathParam.ReplaceAllStringFunc(strings.SplitN(strings.SplitN(o.Path, "#", 2)[0], "?", 2)[0], func(m string) string {
		return url.PathEscape(fmt.Sprint(args[argName(m[1:len(m)-1])]))
	})
	if !strings.HasSuffix(u.EscapedPath(), strings.TrimSuffix(want, "/")) {
		t.Errorf("%s: path %s, want it to end in %s", tool.Name, u.EscapedPath(), want)
	}
	headers, body, _ := strings.Cut(rest, "\n\n")
	for _, p := range params {
		v, ok := args[argName(p.Name)]
		if !ok || p.In == "path" {
			continue
		}
		switch p.In {
		case "query":
			for _, e := range list(v) {
				if !containsStr(u.Query()[p.Name], e) && !strings.Contains(u.Query().Get(p.Name), e) {
					t.Errorf("%s: query %s=%v missing from %s", tool.Name, p.Name, e, u.RawQuery)
				}
			}
		case "header":
			if !strings.Contains(strings.ToLower(headers), strings.ToLower(p.Name)+": ") {
				t.Errorf("%s: header %s missing:\n%s", tool.Name, p.Name, headers)
			}
		}
	}
	checkBody(t, tool, args, body)
}

// checkBody compares a JSON body with the arguments of the body's
// properties.
func checkBody(t *testing.T, tool *Tool, args map[string]any, body string) {
	rb := tool.Operation.op.RequestBody
	if rb == nil || rb.Value == nil {
		return
	}
	media, mt := pickMedia(rb.Value.Content, false)
	if !isJSONMedia(media) || mt == nil || mt.Schema == nil {
		return
	}
	var got any
	if err := json.Unmarshal([]byte(body), &got); err != nil {
		if _, ok := args["body"]; ok || len(args) > 0 {
			t.Errorf("%s: body %q is not JSON: %v", tool.Name, body, err)
		}
		return
	}
	if j := get(get(get(tool.Node, "handler"), "body"), "json"); j != nil && j.Kind == yaml.ScalarNode {
		if whole := args[strings.TrimSuffix(strings.TrimPrefix(j.Value, "${{ args."), " }}")]; !reflect.DeepEqual(got, normal(whole)) {
			t.Errorf("%s: body %v, want %v", tool.Name, got, whole)
		}
		return
	}
	obj, _ := got.(map[string]any)
	s := mt.Schema.Value
	if len(s.AllOf) > 0 {
		s = merged(s)
	}
	for prop := range s.Properties {
		want, ok := args[argName(prop)]
		if !ok || tool.Operation.op.Parameters.GetByInAndName("query", prop) != nil ||
			tool.Operation.op.Parameters.GetByInAndName("path", prop) != nil {
			continue
		}
		if !reflect.DeepEqual(obj[prop], normal(want)) {
			t.Errorf("%s: body %s = %v, want %v", tool.Name, prop, obj[prop], want)
		}
	}
}

// normal is v as JSON decodes it: numbers are float64.
func normal(v any) any {
	data, _ := json.Marshal(v)
	var out any
	json.Unmarshal(data, &out)
	return out
}

// sample makes a value the schema accepts: every required property, and
// the optional ones that are not objects.
func sample(s map[string]any, all bool) any {
	if enum, ok := s["enum"].([]any); ok && len(enum) > 0 {
		return enum[0]
	}
	if d, ok := s["default"]; ok {
		return d
	}
	for _, key := range []string{"oneOf", "anyOf"} {
		alts, ok := s[key].([]any)
		if !ok || len(alts) == 0 {
			continue
		}
		first := alts[0].(map[string]any)
		if s["type"] == nil {
			return sample(first, all)
		}
		// an object whose alternatives only say what it requires
		own, _ := s["required"].([]any)
		more, _ := first["required"].([]any)
		s["required"] = append(append([]any{}, own...), more...)
	}
	typ, _ := s["type"].(string)
	if l, ok := s["type"].([]any); ok && len(l) > 0 {
		typ, _ = l[0].(string)
	}
	if _, ok := s["properties"]; ok && typ == "" {
		typ = "object"
	}
	switch typ {
	case "integer":
		if m, ok := s["minimum"].(int); ok {
			return m + 1
		}
		return 7
	case "number":
		return 2.5
	case "boolean":
		return true
	case "array":
		items, _ := s["items"].(map[string]any)
		n, _ := s["minItems"].(int)
		l := []any{sample(items, false)}
		for len(l) < n {
			l = append(l, l[0])
		}
		return l
	case "object":
		return sampleObject(s, all)
	}
	return sampleString(s)
}

func sampleObject(s map[string]any, all bool) map[string]any {
	out := map[string]any{}
	props, _ := s["properties"].(map[string]any)
	req := map[string]bool{}
	for _, r := range list(s["required"]) {
		req[r] = true
	}
	for name, p := range props {
		ps, _ := p.(map[string]any)
		_, hasPattern := ps["pattern"]
		if req[name] || all && ps["type"] != "object" && !hasPattern && ps["description"] != nil && !strings.Contains(fmt.Sprint(ps["description"]), "not expanded") {
			out[name] = sample(ps, false)
		}
	}
	return out
}

func sampleString(s map[string]any) string {
	switch s["format"] {
	case "date-time":
		return "2024-01-02T03:04:05Z"
	case "date":
		return "2024-01-02"
	case "email":
		return "a@example.com"
	case "uri", "url":
		return "https://example.com/x"
	}
	v := "v1 a/b"
	if n, ok := s["minLength"].(int); ok && n > len(v) {
		v += strings.Repeat("x", n-len(v))
	}
	if n, ok := s["maxLength"].(int); ok && n < len(v) {
		v = v[:n]
	}
	return v
}

// list is v's elements as text.
func list(v any) []string {
	l, ok := v.([]any)
	if !ok {
		return []string{fmt.Sprint(v)}
	}
	var out []string
	for _, e := range l {
		out = append(out, fmt.Sprint(e))
	}
	return out
}

func containsStr(l []string, s string) bool {
	for _, e := range l {
		if e == s {
			return true
		}
	}
	return false
}

// checkTags serves the tools of the first operation tag alone (`serve
// --tags`): the operations carrying it, and no others.
func checkTags(t *testing.T, srv *runtime.Server, res *Result) {
	t.Helper()
	var tag string
	want := 0
	for _, tl := range res.Tools {
		if tags := get(tl.Node, "tags"); tags != nil {
			if tag == "" {
				tag = tags.Content[0].Value
			}
			for _, c := range tags.Content {
				if c.Value == tag {
					want++
				}
			}
		}
	}
	if tag == "" {
		return
	}
	if err := srv.Select(runtime.Selection{Tags: []string{tag}}); err != nil {
		t.Fatal(err)
	}
	if got := len(srv.ToolNames()); got != want || got == len(res.Tools) {
		t.Errorf("--tags %s serves %d tools, want %d of %d", tag, got, want, len(res.Tools))
	}
}
