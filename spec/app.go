package spec

// App makes a resource an interactive user interface for tools (MCP Apps,
// the io.modelcontextprotocol/ui extension): an HTML page a client that
// supports the extension renders, in a sandboxed frame, next to the results
// of the tools that name it. Its URI must start with ui://; it is served
// with the MIME type text/html;profile=mcp-app. Clients without the
// extension ignore it and show the tools' ordinary results.
type App struct {
	// CSP lists the outside origins the page may reach. By default it may
	// reach none: only its own inline scripts, styles and data: images run.
	CSP *AppCSP `yaml:"csp,omitempty"`
	// Permissions the page asks the client for: camera, microphone,
	// geolocation, clipboard_write. Clients may refuse them.
	Permissions []string `yaml:"permissions,omitempty"`
	// Domain is a dedicated origin for the page's frame, in the form the
	// client documents (e.g. for OAuth callbacks or CORS allow-lists).
	Domain string `yaml:"domain,omitempty"`
	// PrefersBorder asks the client to draw (true) or not to draw (false) a
	// border and background around the page; unset, the client decides.
	PrefersBorder *bool `yaml:"prefers_border,omitempty"`
}

// AppCSP lists origins an app's page may reach, each a scheme and host
// such as https://api.example.com, or https://*.example.com for its
// subdomains.
type AppCSP struct {
	// ConnectDomains the page may fetch from or open WebSockets to
	// (connect-src).
	ConnectDomains []string `yaml:"connect_domains,omitempty"`
	// ResourceDomains the page may load scripts, styles, images, fonts and
	// media from.
	ResourceDomains []string `yaml:"resource_domains,omitempty"`
	// FrameDomains the page may embed in frames of its own (frame-src).
	FrameDomains []string `yaml:"frame_domains,omitempty"`
	// BaseURIDomains the page's <base> may name (base-uri).
	BaseURIDomains []string `yaml:"base_uri_domains,omitempty"`
}

// ToolApp links a tool to the app that shows its results.
type ToolApp struct {
	// Resource is the ui:// URI of a resource with `app` settings, which a
	// client supporting MCP Apps renders with the tool's results (its
	// arguments, content and structuredContent).
	Resource string `yaml:"resource" jsonschema:"required"`
	// Visibility says who may call the tool: model (the client's model) and
	// app (the app's page). Defaults to both; [app] hides the tool from the
	// model, for buttons of the page such as refresh.
	Visibility []string `yaml:"visibility,omitempty"`
}
