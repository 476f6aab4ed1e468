package mask

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// Masker hides credentials in results: a tool's output, a resource's
// contents. A nil Masker leaves everything as it is.
type Masker struct {
	r *matcher
}

// NewMasker returns a Masker for values, or nil when there is nothing to
// hide. Which values it masks is load.Secrets' policy (Credentials).
func NewMasker(values []string) *Masker {
	if len(values) == 0 {
		return nil
	}
	return &Masker{r: maskingReplacer(values)}
}

// value masks the strings in a decoded JSON value. It copies only what
// changes: the value may be shared (a default, a cached result).
func (m *Masker) value(v any) (any, bool) {
	switch v := v.(type) {
	case string:
		s := m.r.Replace(v)
		return s, s != v
	case map[string]any:
		return m.object(v)
	case []any:
		var out []any
		for i, e := range v {
			if masked, changed := m.value(e); changed {
				if out == nil {
					out = slices.Clone(v)
				}
				out[i] = masked
			}
		}
		if out == nil {
			return v, false
		}
		return out, true
	case nil, bool, float64, int64, int, json.Number:
		return v, false
	}
	// another Go type (a struct, a typed slice): mask its JSON form
	raw, err := json.Marshal(v)
	if err != nil {
		return v, false
	}
	var plain any
	if json.Unmarshal(raw, &plain) != nil {
		return v, false
	}
	if masked, changed := m.value(plain); changed {
		return masked, true
	}
	return v, false
}

// object masks the keys and values of a JSON object: a secret can be a
// key (a token mapped to its user).
func (m *Masker) object(v map[string]any) (any, bool) {
	var out map[string]any
	for k, e := range v {
		masked, changed := m.value(e)
		key := m.r.Replace(k)
		if !changed && key == k {
			continue
		}
		if out == nil {
			out = maps.Clone(v)
		}
		delete(out, k)
		out[key] = masked
	}
	if out == nil {
		return v, false
	}
	return out, true
}

// content masks the text of content blocks, copying the blocks it changes.
func (m *Masker) content(cs []mcp.Content) []mcp.Content {
	var out []mcp.Content
	set := func(i int, c mcp.Content) {
		if out == nil {
			out = slices.Clone(cs)
		}
		out[i] = c
	}
	for i, c := range cs {
		switch c := c.(type) {
		case *mcp.TextContent:
			if t := m.r.Replace(c.Text); t != c.Text {
				cc := *c
				cc.Text = t
				set(i, &cc)
			}
		case *mcp.EmbeddedResource:
			if rc := m.resourceContents(c.Resource); rc != c.Resource {
				cc := *c
				cc.Resource = rc
				set(i, &cc)
			}
		}
	}
	if out == nil {
		return cs
	}
	return out
}

func (m *Masker) resourceContents(rc *mcp.ResourceContents) *mcp.ResourceContents {
	if rc == nil || rc.Text == "" {
		return rc
	}
	if t := m.r.Replace(rc.Text); t != rc.Text {
		c := *rc
		c.Text = t
		return &c
	}
	return rc
}

// ToolResult masks a tool's result: its content and structured content.
func (m *Masker) ToolResult(res *mcp.CallToolResult) *mcp.CallToolResult {
	if m == nil || res == nil {
		return res
	}
	res.Content = m.content(res.Content)
	if res.StructuredContent != nil {
		res.StructuredContent, _ = m.value(res.StructuredContent)
	}
	return res
}

// ReadResult masks the text contents of a resource.
func (m *Masker) ReadResult(res *mcp.ReadResourceResult) *mcp.ReadResourceResult {
	if m == nil || res == nil {
		return res
	}
	for i, c := range res.Contents {
		res.Contents[i] = m.resourceContents(c)
	}
	return res
}
