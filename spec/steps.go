package spec

// Step is one action a tool performs, in order, before its handler runs or
// its content is rendered. Step texts are templates over `.args` and
// the results of earlier steps (`.steps.NAME`).
type Step struct {
	// Log sends a log message to the client (notifications/message), if the
	// client's logging/setLevel lets that level through.
	Log *LogStep `yaml:"log,omitempty" mcpgen:"exactly_one=action"`
	// Progress reports progress (notifications/progress) when the client
	// asked for it with a progress token. Progress never goes backwards.
	Progress *ProgressStep `yaml:"progress,omitempty" mcpgen:"exactly_one=action"`
	// Sleep waits this long (canceled with the call), e.g. 50ms.
	Sleep *Duration `yaml:"sleep,omitempty" mcpgen:"exactly_one=action"`
	// Sample asks the client's model for a completion (sampling/createMessage).
	// Its result is `.steps.AS.text` (also model, role, stop_reason).
	Sample *SampleStep `yaml:"sample,omitempty" mcpgen:"exactly_one=action"`
	// Elicit asks the user for values (elicitation/create). Its result is
	// `.steps.AS.action` (accept, decline or cancel) and `.steps.AS.content`
	// (the values, when accepted, defaults applied).
	Elicit *ElicitStep `yaml:"elicit,omitempty" mcpgen:"exactly_one=action"`
	// CloseStream closes the HTTP response stream of the call while the
	// call goes on; the client reconnects with Last-Event-ID and receives the
	// rest (resumable streams, SEP-1699). Does nothing over stdio or when the
	// session's protocol has no resumable streams.
	CloseStream *CloseStreamStep `yaml:"close_stream,omitempty" mcpgen:"exactly_one=action"`
	// Roots asks the client for its roots (roots/list). Its result is
	// `.steps.AS.roots` and `.steps.AS.paths`.
	Roots *RootsStep `yaml:"roots,omitempty" mcpgen:"exactly_one=action"`
	// Call sends one request to a backend (http, sql, shell, graphql: any
	// handler) and names its result for later steps, the handler and the
	// content: `steps.AS` in expressions, `.steps.AS` in templates. Its
	// handler sees `args` and the results of earlier steps.
	Call *CallStep `yaml:"call,omitempty" mcpgen:"exactly_one=action"`
	// When is a condition, an expression over `args` and the results of
	// earlier steps (`steps.NAME`); the step runs only when it is true, and
	// a skipped step has no result. E.g. `${{ len(steps.found.items) == 0 }}`.
	When *Value `yaml:"when,omitempty"`
}

// CallStep is a request to a backend made before the tool's handler runs.
type CallStep struct {
	// As names the result: the handler's structured result (for an http
	// handler, its `result`), or `{text: ...}` for a text result.
	As string `yaml:"as,omitempty"`
	// Handler is the request, as a tool's handler: `{backend: crm, path: /contacts}`.
	// A failed request stops the tool with an error naming the step.
	Handler *Handler `yaml:"handler" jsonschema:"required"`
	// ForEach, an expression giving a list, sends the request once per
	// element, in order, with the element as `item` in the handler's
	// expressions; the result is the list of results. E.g. the details of
	// the first three: `${{ steps.list.items[:3] }}`. At most 100 elements.
	ForEach *Value `yaml:"for_each,omitempty"`
}

// LogStep is a log message sent to the client.
type LogStep struct {
	// Level of the message: debug, info, notice, warning, error, critical,
	// alert or emergency. Defaults to info.
	Level string `yaml:"level,omitempty" jsonschema:"enum=debug,enum=info,enum=notice,enum=warning,enum=error,enum=critical,enum=alert,enum=emergency"`
	// Message is the text, a template.
	Message string `yaml:"message" jsonschema:"required"`
	// Logger names the source of the message. Defaults to the tool's name.
	Logger string `yaml:"logger,omitempty"`
}

// ProgressStep is a progress report.
type ProgressStep struct {
	// Progress so far, e.g. 50.
	Progress float64 `yaml:"progress"`
	// Total, when known, e.g. 100.
	Total float64 `yaml:"total,omitempty"`
	// Message describes the progress, a template.
	Message string `yaml:"message,omitempty"`
}

// SampleStep asks the client's model for a completion.
type SampleStep struct {
	// Prompt is the user message sent to the model, a template.
	Prompt string `yaml:"prompt" jsonschema:"required"`
	// System is an optional system prompt, a template.
	System string `yaml:"system,omitempty"`
	// MaxTokens is the most tokens the model may produce. Defaults to 1000.
	MaxTokens int `yaml:"max_tokens,omitempty"`
	// Temperature of the sampling, if set.
	Temperature *float64 `yaml:"temperature,omitempty"`
	// As names the result for later steps, the content and the handler:
	// `.steps.AS.text`.
	As string `yaml:"as,omitempty"`
	// IfSupported skips the step, leaving its result absent, when the
	// client does not support sampling, instead of refusing the call.
	IfSupported bool `yaml:"if_supported,omitempty"`
	// Tools names tools of this config that the client's model may call
	// while it answers (sampling with tools). mcpgen runs each call the
	// model asks for, with the same argument validation, rate limits and
	// scopes as a call from the client, and returns the results to the
	// model. Needs a client that declared sampling with tools; others get
	// an error result. A tool whose steps offer tools cannot be offered.
	Tools []string `yaml:"tools,omitempty"`
	// ToolChoice says whether the model must call a tool: auto (it
	// decides, the default), required or none.
	ToolChoice string `yaml:"tool_choice,omitempty" jsonschema:"enum=auto,enum=required,enum=none"`
	// MaxTurns bounds the rounds of tool calls; after the last one the model
	// must answer without tools. Defaults to 5.
	MaxTurns int `yaml:"max_turns,omitempty"`
}

// ElicitStep asks the user for values through the client.
type ElicitStep struct {
	// Message tells the user what is asked, a template.
	Message string `yaml:"message" jsonschema:"required"`
	// Schema is the requested schema, sent verbatim: an object whose
	// properties are flat (string, number, integer, boolean, or an enum in
	// any of its forms), with optional defaults. Omit it to ask for a plain
	// confirmation.
	Schema *Value `yaml:"schema,omitempty" mcpgen:"at_most_one=mode"`
	// URL sends the user to a web page instead of asking for values
	// (URL-mode elicitation, for what must not pass through the client:
	// sign-ins, payments, secrets), a template. `.elicitation.id` is the
	// elicitation's id, unguessable, for the page to tie its outcome to.
	// Clients that did not declare URL elicitation get an error result.
	// The step's result is `.steps.AS.action` and `.steps.AS.id`.
	URL string `yaml:"url,omitempty" mcpgen:"at_most_one=mode"`
	// Until makes a URL step wait for the user to finish on the page: this
	// handler (e.g. an HTTP request to the page's status endpoint, which
	// sees `steps.AS.id`) is called every `poll_every` until it succeeds;
	// then the client is told the elicitation completed and its result is
	// `.steps.AS.result`. Without it the step waits only for the user to
	// accept going to the page.
	Until *Handler `yaml:"until,omitempty"`
	// PollEvery is how often `until` is called. Defaults to 2s.
	PollEvery Duration `yaml:"poll_every,omitempty"`
	// Timeout is how long the user has to finish on the page before the
	// tool fails. Defaults to 10m.
	Timeout Duration `yaml:"timeout,omitempty"`
	// As names the result: `.steps.AS.action` and `.steps.AS.content`.
	As string `yaml:"as,omitempty"`
	// Optional lets the tool go on when the user declines or cancels, so
	// that templates can look at `.steps.AS.action`. By default a declined
	// or canceled elicitation stops the tool: nothing more runs and the
	// result is an error saying so.
	Optional bool `yaml:"optional,omitempty"`
	// IfSupported skips the step, leaving its result absent, when the
	// client does not support elicitation, instead of refusing the call.
	IfSupported bool `yaml:"if_supported,omitempty"`
}

// CloseStreamStep closes the call's response stream.
type CloseStreamStep struct {
	// Retry is the reconnection delay suggested to the client. Defaults to
	// 100ms.
	Retry Duration `yaml:"retry,omitempty"`
}
