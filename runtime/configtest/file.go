// Package configtest runs the behaviour tests of a config (`mcpgen test`):
// cases written in YAML beside it that call a tool, read a resource or get
// a prompt through a real MCP client of the built server, and check what
// comes back. They run offline: HTTP backends replay recorded exchanges,
// SQL backends run against the database the case seeds, and shell commands
// can be replaced by stubs.
package configtest

// File is a file of tests of a config, named NAME.test.yaml beside the
// config NAME.yaml.
type File struct {
	// Config lists the config files the tests run against, relative to
	// this file. By default, the config this file is named for:
	// mcpgen.test.yaml tests mcpgen.yaml.
	Config []string `yaml:"config,omitempty"`
	// Env sets environment variables for the config's ${VAR} references
	// while its tests run, over the process's own: point a database at
	// `:memory:`, give a base URL, a dummy token. Variables still unset
	// are left empty (as with validate --skip-env). With --record, the
	// process's variables win: the real API's URL and token.
	Env map[string]string `yaml:"env,omitempty"`
	// NeedsEnv lists environment variables the tests need, such as the DSN
	// of a database server: while one is unset, every case is reported as
	// skipped, saying which.
	NeedsEnv []string `yaml:"needs_env,omitempty"`
	// Seed runs SQL on entries of `backends` before every case, by backend
	// name, before the case's own seed: create the tables a database
	// server's tests need (idempotently: DROP ... IF EXISTS first).
	Seed map[string]string `yaml:"seed,omitempty"`
	// SeedFiles runs SQL files, relative to this file, on entries of
	// `backends` before every case, by backend name, before `seed`: the
	// schema file an example keeps beside its config.
	SeedFiles map[string]string `yaml:"seed_files,omitempty"`
	// Tests are the cases, run in order, each against a server built
	// afresh (an in-memory database starts empty again, from its init
	// script).
	Tests []*Case `yaml:"tests" jsonschema:"required"`
}

// Case is one test: what to ask the server and what must come back.
type Case struct {
	// Name says what the case shows; `mcpgen test --run` selects cases by
	// it, and recordings are filed under it.
	Name string `yaml:"name" jsonschema:"required"`
	// Call names the tool to call.
	Call string `yaml:"call,omitempty" mcpgen:"exactly_one=request"`
	// Read is the URI of a resource to read.
	Read string `yaml:"read,omitempty" mcpgen:"exactly_one=request"`
	// Prompt names the prompt to get.
	Prompt string `yaml:"prompt,omitempty" mcpgen:"exactly_one=request"`
	// Args are the tool's or the prompt's arguments, as the client sends
	// them.
	Args map[string]any `yaml:"args,omitempty"`
	// Env sets environment variables for this case only, over the file's.
	Env map[string]string `yaml:"env,omitempty"`
	// Seed runs SQL on an entry of `backends` before the call, by backend
	// name: `shop: INSERT INTO customers ...`. Several statements may be
	// given, separated by semicolons.
	Seed map[string]string `yaml:"seed,omitempty"`
	// Stubs replace shell commands the case runs by a stub with the given
	// output and exit status. A stub that no command used fails the case.
	Stubs []*Stub `yaml:"stubs,omitempty"`
	// HTTP are the exchanges HTTP backends replay in this case, written by
	// hand; `mcpgen test --record` stores real ones in NAME.recorded.yaml
	// beside the test file instead. A request that matches none fails the
	// case, naming the nearest one.
	HTTP []*Exchange `yaml:"http,omitempty"`
	// Caller is who makes the request, as if authenticated over HTTP: the
	// tools' `auth`, their scopes, list results and a SQL backend's
	// session see it. Not given: nobody authenticates, as over stdio, and
	// a tool acting for its caller refuses the call.
	Caller *Caller `yaml:"caller,omitempty"`
	// Expect is what must come back.
	Expect Expect `yaml:"expect"`
}

// Caller is an authenticated caller made up for a test case.
type Caller struct {
	// Subject identifies the caller (`auth.subject`), as a token's `sub`.
	Subject string `yaml:"subject" jsonschema:"required"`
	// ClientID is the OAuth client (`auth.client_id`).
	ClientID string `yaml:"client_id,omitempty"`
	// Scopes granted to the caller, with those they imply (`implies`)
	// added as for a token.
	Scopes []string `yaml:"scopes,omitempty"`
	// Claims are the token's claims (`auth.claims`), as JSON values.
	Claims map[string]any `yaml:"claims,omitempty"`
}

// Stub replaces a shell command.
type Stub struct {
	// Command is the program the stub replaces, as the config writes it
	// (`grep`), or the shell of a `script` (`sh`), or a command a script
	// runs by name (`git`, replaced by a shell function defined before the
	// script: not what it runs through exec, command, env or xargs).
	// Empty: every command the case runs.
	Command string `yaml:"command,omitempty"`
	// Stdout is what the stub writes to its standard output.
	Stdout string `yaml:"stdout,omitempty"`
	// Stderr is what the stub writes to its standard error, where
	// `progress` and the log read it.
	Stderr string `yaml:"stderr,omitempty"`
	// ExitCode is the stub's exit status, 0 by default.
	ExitCode int `yaml:"exit_code,omitempty" jsonschema:"minimum=0,maximum=255"`
}

// Exchange is one HTTP request and the response replayed for it.
type Exchange struct {
	// Request is what the backend must send.
	Request Request `yaml:"request"`
	// Response is what it gets back.
	Response Response `yaml:"response"`
}

// Request is a recorded or expected HTTP request.
type Request struct {
	// Method is the request's method, GET by default.
	Method string `yaml:"method,omitempty"`
	// URL is the request's full URL (https://api.example.com/v1/items?q=x)
	// or its path and query alone (/v1/items?q=x). Query parameters match
	// in any order.
	URL string `yaml:"url" jsonschema:"required"`
	// Headers that the request must carry with these values; a value
	// `[scrubbed]` (a secret a recording left out) matches any.
	Headers map[string]string `yaml:"headers,omitempty"`
	// Body is the request's body as text; when it is JSON, it matches any
	// body holding the same JSON value. Not given: any body matches.
	Body string `yaml:"body,omitempty" mcpgen:"at_most_one=body"`
	// JSON is the request's body as a JSON value written in YAML. An
	// object matches a body holding at least its keys, with matching
	// values: `json: {variables: {id: "7"}}` leaves a GraphQL query out.
	JSON any `yaml:"json,omitempty" mcpgen:"at_most_one=body"`
}

// Response is a recorded or made-up HTTP response.
type Response struct {
	// Status is the response's status code, 200 by default.
	Status int `yaml:"status,omitempty" jsonschema:"minimum=100,maximum=599"`
	// Headers of the response. A JSON body gets Content-Type:
	// application/json unless it says otherwise.
	Headers map[string]string `yaml:"headers,omitempty"`
	// Body is the response's body as text.
	Body string `yaml:"body,omitempty" mcpgen:"at_most_one=body"`
	// JSON is the response's body as a JSON value written in YAML.
	JSON any `yaml:"json,omitempty" mcpgen:"at_most_one=body"`
}

// Expect states what a case's result must hold; every field given is
// checked.
type Expect struct {
	// IsError is whether the result is an error: a tool result with
	// isError, or an error reading the resource or getting the prompt.
	// Not given: the result must not be an error.
	IsError *bool `yaml:"is_error,omitempty"`
	// Text checks the result's text: its text blocks (a resource's
	// contents, a prompt's messages, an error's message) joined by
	// newlines.
	Text *TextMatch `yaml:"text,omitempty"`
	// JSON checks values of the structured content (or of the text, when
	// it is JSON) by path: `items[0].name: Ada`, `count: 3`. A leading `$.`
	// is allowed.
	JSON map[string]any `yaml:"json,omitempty"`
	// Logs must each match a log notification the server sent during the
	// call (the client asks for every level).
	Logs []*LogMatch `yaml:"logs,omitempty"`
	// Progress is the least number of progress notifications the call must
	// send (the client asks for them).
	Progress int `yaml:"progress,omitempty" jsonschema:"minimum=0"`
}

// TextMatch checks a text.
type TextMatch struct {
	// Equals is the whole text, trailing newlines ignored.
	Equals *string `yaml:"equals,omitempty"`
	// Contains is text that must occur in it.
	Contains string `yaml:"contains,omitempty"`
	// NotContains is text that must not occur in it.
	NotContains string `yaml:"not_contains,omitempty"`
	// Matches is a regular expression (Go syntax) that must match some of
	// it; (?m) makes ^ and $ match at line breaks.
	Matches string `yaml:"matches,omitempty"`
}

// LogMatch matches one log notification.
type LogMatch struct {
	// Level of the message (debug, info, notice, warning, error, ...);
	// any level when not given.
	Level string `yaml:"level,omitempty" jsonschema:"enum=debug,enum=info,enum=notice,enum=warning,enum=error,enum=critical,enum=alert,enum=emergency"`
	// Contains is text the message's data must hold (as JSON when it is
	// not a string).
	Contains string `yaml:"contains,omitempty"`
}
