// Package pack writes what installs an mcpgen server in a user's client: an
// MCPB desktop-extension bundle (a zip of a manifest, the mcpgen binary for
// one platform, the configs and the files they refer to) and a server.json
// for the MCP registry. Both are validated against their published
// schemas, vendored in schemas/ with their licences.
package pack

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed schemas/*.json
var schemaFiles embed.FS

// The vendored schemas, by the file they are in.
const (
	manifestSchema   = "schemas/mcpb-manifest-v0.3.schema.json"
	serverJSONSchema = "schemas/server.schema.json"
)

var (
	compileOnce sync.Once
	compiled    map[string]*jsonschema.Schema
	compileErr  error
)

// validate checks a document, marshalled to JSON, against the schema in
// file.
func validate(file string, doc any) error {
	compileOnce.Do(func() {
		compiled = map[string]*jsonschema.Schema{}
		c := jsonschema.NewCompiler()
		c.AssertFormat()
		for _, f := range []string{manifestSchema, serverJSONSchema} {
			data, err := schemaFiles.ReadFile(f)
			if err != nil {
				compileErr = err
				return
			}
			s, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
			if err != nil {
				compileErr = fmt.Errorf("%s: %w", f, err)
				return
			}
			if err := c.AddResource(f, s); err != nil {
				compileErr = err
				return
			}
			if compiled[f], err = c.Compile(f); err != nil {
				compileErr = err
				return
			}
		}
	})
	if compileErr != nil {
		return compileErr
	}
	data, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return compiled[file].Validate(v)
}

// encode writes doc as indented JSON.
func encode(w io.Writer, doc any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}
