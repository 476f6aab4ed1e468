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
}

// ElicitStep asks the user for values through the client.
type ElicitStep struct {
	// Message tells the user what is asked, a template.
	Message string `yaml:"message" jsonschema:"required"`
	// Schema is the requested schema, sent verbatim: an object whose
	// properties are flat (string, number, integer, boolean, or an enum in
	// any of its forms), with optional defaults. Omit it to ask for a plain
	// confirmation.
	Schema *Value `yaml:"schema,omitempty"`
	// As names the result: `.steps.AS.action` and `.steps.AS.content`.
	As string `yaml:"as,omitempty"`
	// Optional lets the tool go on when the user declines or cancels, so
	// that templates can look at `.steps.AS.action`. By default a declined
	// or canceled elicitation stops the tool: nothing more runs and the
	// result is an error saying so.
	Optional bool `yaml:"optional,omitempty"`
}

// CloseStreamStep closes the call's response stream.
type CloseStreamStep struct {
	// Retry is the reconnection delay suggested to the client. Defaults to
	// 100ms.
	Retry Duration `yaml:"retry,omitempty"`
}
