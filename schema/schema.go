// Package schema is the JSON Schema of mcpgen's configuration file.
//
// mcpgen.schema.json is generated from the Go types in spec/ and from the
// configuration types of every built-in backend kind, with each field's doc
// comment as its description, by `go generate ./schema`. It is committed; a
// test fails when it is stale. Editors use it through
//
//	# yaml-language-server: $schema=https://…/mcpgen.schema.json
package schema

import (
	"bytes"
	_ "embed"
)

//go:generate go run ./gen -root .. -out mcpgen.schema.json

//go:embed mcpgen.schema.json
var committed []byte

// JSON returns the committed schema, as `mcpgen schema` prints it.
func JSON() []byte { return bytes.Clone(committed) }
