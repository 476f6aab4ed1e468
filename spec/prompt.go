package spec

// Prompt is a message template a user picks, often as a slash command.
type Prompt struct {
	// Name of the prompt; unique across all files.
	Name string `yaml:"name" jsonschema:"required"`
	// Title is a human-friendly display name.
	Title string `yaml:"title,omitempty"`
	// Description says what the prompt is for.
	Description string `yaml:"description" jsonschema:"required"`
	// Icons a client may show for it.
	Icons []*Icon `yaml:"icons,omitempty"`
	// Arguments the user fills in. Their values are strings; templates see
	// them as `.args.NAME`.
	Arguments []*PromptArg `yaml:"arguments,omitempty"`
	// Messages the prompt expands to, in order.
	Messages []*Message `yaml:"messages" jsonschema:"required"`
	// Tags group the prompt: when a subset is served (`serve --tags`, a
	// toolset), a prompt with tags is served only if one of them is
	// selected; a prompt without tags is always served.
	Tags []string `yaml:"tags,omitempty"`
	// Scopes a caller must have been granted to see and get this prompt over
	// authenticated HTTP (`server.http.auth`); a caller without them does not
	// find it in list results, and is refused if it asks anyway.
	Scopes []string `yaml:"scopes,omitempty"`
	// Steps run before the messages render: elicit, sample and roots (and
	// confirm-like elicitations). Their results are `.steps.NAME` in the
	// messages.
	Steps []*Step `yaml:"steps,omitempty"`
	// CacheHint is this prompt's caching hint: prompts/list carries the
	// shortest TTL of all prompts, and is private if any prompt is.
	CacheHint *CacheHint `yaml:"cache_hint,omitempty"`
}

// PromptArg is one argument of a prompt.
type PromptArg struct {
	// Name of the argument.
	Name string `yaml:"name" jsonschema:"required"`
	// Title is a human-friendly display name.
	Title string `yaml:"title,omitempty"`
	// Description of the argument.
	Description string `yaml:"description,omitempty"`
	// Required arguments must be given; a request without them is rejected.
	Required bool `yaml:"required,omitempty"`
	// Default is the value used when the argument is not given.
	Default string `yaml:"default,omitempty"`
	// Complete lists values offered to the user as completions (filtered by
	// the prefix typed so far).
	Complete []string `yaml:"complete,omitempty" mcpgen:"at_most_one=completion"`
	// CompleteFrom is a handler (an sql query, a command) whose result lists
	// the values offered as completions. Its expressions see `args.value`,
	// the text typed so far, and `args.context`, the other arguments already
	// given. Values are filtered by prefix; at most 100 are sent.
	CompleteFrom *Handler `yaml:"complete_from,omitempty" mcpgen:"at_most_one=completion"`
}

// Message is one prompt message: a role and one content block.
type Message struct {
	// Role of the message: user or assistant. Defaults to user.
	Role string `yaml:"role,omitempty" jsonschema:"enum=user,enum=assistant"`
	// Content of the message: one content block.
	Content `yaml:",inline"`
}
