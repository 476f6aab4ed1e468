package load

import (
	"testing"

	"gopkg.in/yaml.v3"
)

// TestExpandSharesUnchangedNodes: a schema without environment references
// is the file's own tree, not a copy of it (a large imported config would
// be held twice); one with a reference is a copy, and the file's tree keeps
// the text as written.
func TestExpandSharesUnchangedNodes(t *testing.T) {
	src := `version: 1
tools:
  - name: plain
    description: Plain.
    input_schema: {type: object, properties: {id: {type: integer}}}
    content: [{text: hi}]
  - name: env
    description: Env.
    input_schema: {type: object, properties: {id: {type: integer, description: "${DESC}"}}}
    content: [{text: hi}]
`
	f, ds := Bytes("c.yaml", []byte(src), Options{LookupEnv: func(string) (string, bool) { return "the id", true }})
	if ds.Errors() > 0 {
		t.Fatal(ds)
	}
	plain, env := f.Config.Tools[0].InputSchema.Node, f.Config.Tools[1].InputSchema.Node
	if plain != f.Node("tools[0].input_schema") {
		t.Error("the schema without references is a copy")
	}
	if env == f.Node("tools[1].input_schema") {
		t.Error("the schema with a reference is the file's own node")
	}
	var got struct {
		Properties struct{ ID struct{ Description string } }
	}
	if err := env.Decode(&got); err != nil || got.Properties.ID.Description != "the id" {
		t.Errorf("expanded description = %q (%v)", got.Properties.ID.Description, err)
	}
	written := f.Node("tools[1].input_schema.properties.id.description")
	if written == nil || written.Kind != yaml.ScalarNode || written.Value != "${DESC}" {
		t.Errorf("the file's node = %+v", written)
	}
}
