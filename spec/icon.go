package spec

// Icon is an image a client may show next to the server, a tool, a resource
// or a prompt. Give it as a URL (`src`) or as a file that mcpgen embeds as a
// data: URI when the config loads.
type Icon struct {
	// Src is the image's address: an https: URL, or a data: URI
	// (data:image/png;base64,...). Clients fetch an https: icon themselves.
	Src string `yaml:"src,omitempty" mcpgen:"exactly_one=source"`
	// File is a path, relative to the config file, to an image of at most
	// 256KiB (PNG, JPEG, GIF, WebP, SVG or ICO), read when the config loads
	// and sent to clients as a data: URI.
	File string `yaml:"file,omitempty" mcpgen:"server,exactly_one=source"`
	// MimeType of the image, e.g. image/png. Guessed from the file's name
	// for `file`; must be an image type.
	MimeType string `yaml:"mime_type,omitempty"`
	// Sizes the image is made for, each WIDTHxHEIGHT (48x48) or `any` for a
	// scalable image such as SVG.
	Sizes []string `yaml:"sizes,omitempty"`
	// Theme is the background the icon is made for: light or dark.
	Theme string `yaml:"theme,omitempty" jsonschema:"enum=light,enum=dark"`
}
