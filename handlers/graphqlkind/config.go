package graphqlkind

import (
	"github.com/mcpgen/mcpgen/handlers/httpkind"
	"github.com/mcpgen/mcpgen/spec"
)

// BackendConfig is a named `backends:` entry of kind graphql: a GraphQL
// API's endpoint (`base_url`), its schema, and the HTTP connection (auth,
// TLS, headers, limits) shared by the tools that name it.
type BackendConfig struct {
	httpkind.SharedConnection `yaml:",inline"`
	// Schema of the API, relative to the config file: an SDL file
	// (`schema.graphql`) or the JSON result of an introspection query
	// (`schema.json`). Every tool's operation is checked against it when
	// the config loads.
	Schema string `yaml:"schema" jsonschema:"required"`
}

// Config is the handler of a tool of kind graphql: one GraphQL operation,
// sent as a POST of JSON to the API's endpoint. With `backend: NAME` it
// uses that backend's endpoint, schema and connection; without, it gives
// its own `base_url` (the endpoint, e.g. https://api.example.com/graphql),
// `schema`, and `auth` or `tls` if needed.
//
// The operation is checked against the schema when the config loads. Its
// variables take the arguments of the same names (`$id` is `args.id`),
// whose types must fit the variables' types; a tool that declares neither
// `args` nor `input_schema` gets its input schema from the variables.
type Config struct {
	httpkind.Connection `yaml:",inline"`
	httpkind.Limits     `yaml:",inline"`
	// Schema of the API, for a tool without `backend:`; see the backend's.
	Schema string `yaml:"schema,omitempty"`
	// File holding the operation, relative to the config file, e.g.
	// operations/get_user.graphql. It may hold fragments and several
	// operations; `operation` then names the one to run.
	File string `yaml:"file,omitempty" mcpgen:"exactly_one=document"`
	// Document is the operation written inline, e.g.
	// `query User($id: ID!) { user(id: $id) { name } }`.
	Document string `yaml:"document,omitempty" mcpgen:"exactly_one=document"`
	// Operation names the operation to run when the document holds several.
	Operation string `yaml:"operation,omitempty"`
	// Variables maps operation variables to values that may hold
	// ${{ expressions }} over `args`, e.g. `since: ${{ args.days_ago }}`.
	// A variable not listed takes the argument of the same name; one whose
	// value is null (an optional argument not passed) is left out.
	Variables map[string]spec.Value `yaml:"variables,omitempty"`
	// Headers of the request, added to the backend's. A value holding a
	// carriage return or line feed is refused.
	Headers map[string]spec.Value `yaml:"headers,omitempty"`
	// ForwardHeaders names headers of the client's request to mcpgen copied
	// onto this tool's request, besides the backend's `forward_headers`.
	ForwardHeaders []string `yaml:"forward_headers,omitempty"`
	// Result extracts the structured result from the response's `data`,
	// e.g. ${{ data.repository.issues.nodes }}; expressions see `args` and
	// `data`. Defaults to data. A result that is not an object is wrapped:
	// a list as {items: [...]}, anything else as {value: ...}.
	Result spec.Value `yaml:"result,omitempty"`

	prep prepared // what prepare learnt, shared by InputSchema and Build
}
