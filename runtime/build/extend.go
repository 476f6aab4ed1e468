package build

import (
	"encoding/json"
	"maps"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/input"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/spec"
)

// extendInput adds to a tool's input schema the arguments its handler
// adds itself (handlers.InputExtender: the cursor of a paged SQL query),
// or returns in unchanged.
func (b *builder) extendInput(f *load.File, path string, t *spec.Tool, d *decoded, in *input.Schema) *input.Schema {
	if d == nil || d.env.partial || in == nil {
		return in
	}
	ex, ok := d.cfg.(handlers.InputExtender)
	if !ok {
		return in
	}
	doc := in.Doc()
	if doc == nil {
		return in
	}
	props, _ := doc["properties"].(map[string]any)
	added := map[string]any{}
	for name, p := range ex.ExtendInput(d.env, doc) {
		if _, has := props[name]; !has {
			added[name] = p
		}
	}
	if len(added) == 0 {
		return in
	}
	ext := maps.Clone(doc)
	ext["type"] = "object"
	ext["properties"] = added
	if props != nil {
		all := maps.Clone(props)
		maps.Copy(all, added)
		ext["properties"] = all
	}
	raw, err := json.Marshal(ext)
	var s *input.Schema
	if err == nil {
		s, err = b.schemas.Compile(t.Name+"/input", raw)
	}
	if err != nil {
		b.errorf(f, path+".handler", "the arguments the handler adds make an invalid input schema: %v", err)
		return in
	}
	return s
}
