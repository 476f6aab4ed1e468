package spec

// Resource is content at a fixed URI.
type Resource struct {
	// URI of the resource (RFC 3986), e.g. docs://handbook or file:///etc/motd.
	URI string `yaml:"uri" jsonschema:"required"`
	// Name of the resource.
	Name string `yaml:"name" jsonschema:"required"`
	// Title is a human-friendly display name.
	Title string `yaml:"title,omitempty"`
	// Description of the resource.
	Description string `yaml:"description,omitempty"`
	// Icons a client may show for it.
	Icons []*Icon `yaml:"icons,omitempty"`
	// MimeType of the contents. Guessed from the file name for `file`;
	// text/plain for `text`.
	MimeType string `yaml:"mime_type,omitempty"`
	// App makes the resource an interactive page for tools (MCP Apps); its
	// URI starts with ui:// and its contents are HTML.
	App *App `yaml:"app,omitempty"`
	// Tags group the resource: when a subset is served (`serve --tags`, a
	// toolset), a resource with tags is served only if one of them is
	// selected; a resource without tags is always served.
	Tags []string `yaml:"tags,omitempty"`
	// Scopes a caller must have been granted to see and read this resource
	// over authenticated HTTP (`server.http.auth`); a caller without them
	// does not find it in list results, and is refused if it asks anyway.
	Scopes []string `yaml:"scopes,omitempty"`
	// CacheHint is the caching hint of reads of this resource; the list of
	// resources carries the shortest TTL of all, and is private if any is.
	CacheHint *CacheHint `yaml:"cache_hint,omitempty"`
	// Steps ask the client before the contents are made: elicit, sample or
	// roots, as a prompt's steps. Their results are `.steps.NAME` in the
	// text and `steps.NAME` in the handler's expressions. A 2026-07-28
	// client is asked through input requests of the read; what they
	// answer is the caller's, so reads are never cached.
	Steps []*Step `yaml:"steps,omitempty"`
	// Source of the contents.
	Source `yaml:",inline"`
}

// ResourceTemplate is a family of resources named by a URI template.
type ResourceTemplate struct {
	// URITemplate is an RFC 6570 template, e.g. docs://pages/{name}. Reading
	// a URI that matches binds its variables; templates see them as
	// `.vars.NAME`.
	URITemplate string `yaml:"uri_template" jsonschema:"required"`
	// Name of the template.
	Name string `yaml:"name" jsonschema:"required"`
	// Title is a human-friendly display name.
	Title string `yaml:"title,omitempty"`
	// Description of the template.
	Description string `yaml:"description,omitempty"`
	// Icons a client may show for it.
	Icons []*Icon `yaml:"icons,omitempty"`
	// MimeType of the contents.
	MimeType string `yaml:"mime_type,omitempty"`
	// Complete lists values offered as completions for each variable.
	Complete map[string][]string `yaml:"complete,omitempty"`
	// CompleteFrom gives, for a variable, a handler (an sql query, a
	// command) whose result lists the values offered as completions. Its
	// expressions see `args.value`, the text typed so far, and
	// `args.context`, the other variables already given. Values are
	// filtered by prefix; at most 100 are sent.
	CompleteFrom map[string]*Handler `yaml:"complete_from,omitempty"`
	// Tags group the template: when a subset is served (`serve --tags`, a
	// toolset), a template with tags is served only if one of them is
	// selected; a template without tags is always served.
	Tags []string `yaml:"tags,omitempty"`
	// Scopes a caller must have been granted to see and read the template
	// and its resources over authenticated HTTP (`server.http.auth`); a
	// caller without them does not find it in list results, and is refused
	// if it asks anyway.
	Scopes []string `yaml:"scopes,omitempty"`
	// CacheHint is the caching hint of reads of this resource; the list of
	// resources carries the shortest TTL of all, and is private if any is.
	CacheHint *CacheHint `yaml:"cache_hint,omitempty"`
	// Steps ask the client before the contents are made: elicit, sample or
	// roots, as a prompt's steps. Their results are `.steps.NAME` in the
	// text and `steps.NAME` in the handler's expressions. A 2026-07-28
	// client is asked through input requests of the read; what they
	// answer is the caller's, so reads are never cached.
	Steps []*Step `yaml:"steps,omitempty"`
	// Source of the contents.
	Source `yaml:",inline"`
}

// Source says where a resource's contents come from.
type Source struct {
	// Text contents, a template.
	Text *string `yaml:"text,omitempty" mcpgen:"exactly_one=source"`
	// Blob is binary contents, base64-encoded.
	Blob string `yaml:"blob,omitempty" mcpgen:"exactly_one=source"`
	// File is a path (a template for resource templates) resolved inside
	// `root`. Paths that leave the root, by `..` or through a symbolic link,
	// are refused.
	File string `yaml:"file,omitempty" mcpgen:"server,exactly_one=source"`
	// Root is the directory files are confined to, relative to the config
	// file. Defaults to the config file's directory. A root on /proc, /sys
	// or another kernel filesystem, or holding one (such as /), is refused:
	// the server's own environment could be read there.
	Root string `yaml:"root,omitempty" mcpgen:"server"`
	// TemplateFile is a path, relative to the config file, to a template
	// (Go text/template with sprig functions) read and parsed when the
	// config loads and rendered on each read, e.g. templates/page.html.
	TemplateFile string `yaml:"template_file,omitempty" mcpgen:"server,exactly_one=source"`
	// Handler fetches the contents from a backend.
	Handler *Handler `yaml:"handler,omitempty" mcpgen:"exactly_one=source"`
}
