package spec

// Content is one block of a tool result or a prompt message.
type Content struct {
	// Text is a template (Go text/template with sprig functions) rendered to
	// a text block.
	Text *string `yaml:"text,omitempty" mcpgen:"exactly_one=block"`
	// Image is an image block.
	Image *Binary `yaml:"image,omitempty" mcpgen:"exactly_one=block"`
	// Audio is an audio block.
	Audio *Binary `yaml:"audio,omitempty" mcpgen:"exactly_one=block"`
	// Resource is an embedded resource: its URI and its contents.
	Resource *Embedded `yaml:"resource,omitempty" mcpgen:"exactly_one=block"`
	// ResourceLink points the client at a resource it can read.
	ResourceLink *Link `yaml:"resource_link,omitempty" mcpgen:"exactly_one=block"`
}

// Binary is base64 data with a MIME type, given inline or read from a file.
type Binary struct {
	// Data is the content, base64-encoded.
	Data string `yaml:"data,omitempty" mcpgen:"exactly_one=data"`
	// File is a path, relative to the config file, read when the config loads.
	File string `yaml:"file,omitempty" mcpgen:"server,exactly_one=data"`
	// MimeType of the content, e.g. image/png or audio/wav. Guessed from the
	// file name when omitted.
	MimeType string `yaml:"mime_type,omitempty"`
}

// Embedded is a resource embedded in a result or message.
type Embedded struct {
	// URI of the resource (a template).
	URI string `yaml:"uri" jsonschema:"required"`
	// MimeType of the contents.
	MimeType string `yaml:"mime_type,omitempty"`
	// Text contents (a template).
	Text *string `yaml:"text,omitempty" mcpgen:"exactly_one=contents"`
	// Blob is binary contents, base64-encoded.
	Blob string `yaml:"blob,omitempty" mcpgen:"exactly_one=contents"`
	// File is a path, relative to the config file, whose bytes become the
	// contents (text for text/* MIME types, blob otherwise).
	File string `yaml:"file,omitempty" mcpgen:"server,exactly_one=contents"`
}

// Link is a resource link.
type Link struct {
	// URI of the linked resource (a template).
	URI string `yaml:"uri" jsonschema:"required"`
	// Name of the linked resource (a template).
	Name string `yaml:"name" jsonschema:"required"`
	// Description of the linked resource.
	Description string `yaml:"description,omitempty"`
	// MimeType of the linked resource.
	MimeType string `yaml:"mime_type,omitempty"`
}
