package spec

// Content is one block of a tool result or a prompt message. Exactly one of
// text, image, audio, resource and resource_link is set.
type Content struct {
	// Text is a template (Go text/template with sprig functions) rendered to
	// a text block.
	Text *string `yaml:"text,omitempty"`
	// Image is an image block.
	Image *Binary `yaml:"image,omitempty"`
	// Audio is an audio block.
	Audio *Binary `yaml:"audio,omitempty"`
	// Resource is an embedded resource: its URI and its contents.
	Resource *Embedded `yaml:"resource,omitempty"`
	// ResourceLink points the client at a resource it can read.
	ResourceLink *Link `yaml:"resource_link,omitempty"`
}

// Binary is base64 data with a MIME type, given inline or read from a file.
type Binary struct {
	// Data is the content, base64-encoded. Exclusive with `file`.
	Data string `yaml:"data,omitempty"`
	// File is a path, relative to the config file, read when the config loads.
	File string `yaml:"file,omitempty" mcpgen:"server"`
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
	// Text contents (a template). Exclusive with `blob` and `file`.
	Text *string `yaml:"text,omitempty"`
	// Blob is binary contents, base64-encoded.
	Blob string `yaml:"blob,omitempty"`
	// File is a path, relative to the config file, whose bytes become the
	// contents (text for text/* MIME types, blob otherwise).
	File string `yaml:"file,omitempty" mcpgen:"server"`
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
