package openapi

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/go-cmp/cmp"
	yaml "go.yaml.in/yaml/v4"
)

// TestJSONPath: a JSON description read through jsonNode converts to the
// config kin-openapi's own loader gives for the same bytes.
func TestJSONPath(t *testing.T) {
	files := []string{"testdata/petstore-3.0.yaml", "testdata/petstore-3.1.yaml", "testdata/security-3.0.yaml", "testdata/server-variables-3.0.yaml"}
	if !testing.Short() && !raceEnabled {
		files = append(files, "testdata/github-api.json.gz")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			path := asJSON(t, file)
			doc, err := Load(context.Background(), path, LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			kin, err := openapi3.NewLoader().LoadFromDataWithPath(data, &url.URL{Path: path})
			if err != nil {
				t.Fatal(err)
			}
			ref := &Document{T: kin, Version: doc.Version, Source: doc.Source}
			if diff := cmp.Diff(render(t, ref), render(t, doc)); diff != "" {
				t.Errorf("(-kin-openapi's loader +jsonNode):\n%s", diff)
			}
		})
	}
}

// asJSON returns the path of file as JSON: gunzipped, or converted from YAML.
func asJSON(t *testing.T, file string) string {
	if strings.HasSuffix(file, ".gz") {
		return gunzip(t, file)
	}
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := yaml.Unmarshal(text, &v); err != nil {
		t.Fatal(err)
	}
	data, err := json.MarshalIndent(stringKeys(v), "", " ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "openapi.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func render(t *testing.T, doc *Document) string {
	out, err := Render(Convert(doc, doc.Operations(), Options{}, nil).File)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestJSONNode: scalars keep their JSON types, and broken JSON is an error
// with the line it was found on.
func TestJSONNode(t *testing.T) {
	n, err := jsonNode([]byte("{\"s\": \"1\", \"i\": -12, \"f\": 1.5E3, \"b\": true, \"z\": null,\n\"a\": [\"x\", {}],\n" +
		"\"e\": \"caf\\u00e9 \\\"q\\\"\\n\", \"u\": \"na\xc3\xafve\", \"bad\": \"\xff\" }"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range n.Content[0].Content {
		got = append(got, c.Tag+" "+c.Value)
	}
	want := []string{"!!str s", "!!str 1", "!!str i", "!!int -12", "!!str f", "!!float 1.5E3", "!!str b", "!!bool true",
		"!!str z", "!!null null", "!!str a", "!!seq ", "!!str e", "!!str café \"q\"\n", "!!str u", "!!str naïve",
		"!!str bad", "!!str \ufffd"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if line := n.Content[0].Content[10].Line; line != 2 {
		t.Errorf("key a is on line %d, want 2", line)
	}
	for _, tt := range []struct{ text, want string }{
		{"{\"openapi\": \"3.0.3\",\n\"info\": {", "line 2: unexpected end of JSON input"},
		{"{\"a\": 1}\n{}", "line 2: invalid character '{' after top-level value"},
		{"{\"a\":\n tru}", "line 2: invalid character"},
		{"[1]", "neither `openapi: 3.x`"},
		{"{\"openapi\": \"3.0.3\", \"info\": {\"title\": \"t\", \"version\": \"1\"}, \"paths\": []}", "line 1: cannot construct"},
	} {
		path := filepath.Join(t.TempDir(), "x.json")
		os.WriteFile(path, []byte(tt.text), 0o644)
		_, err := Load(context.Background(), path, LoadOptions{})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%q: error %v, want one saying %q", tt.text, err, tt.want)
		}
	}
}
