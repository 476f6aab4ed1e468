package handlers

import "strings"

// Content is one block of a result: text, an image, audio or an embedded
// resource. It is a value, so a list of blocks is one allocation; runtime
// turns it into the protocol's content blocks when it answers.
type Content struct {
	// Kind says what the block holds; the zero value is text.
	Kind ContentKind
	// Text is the text of a text block or of an embedded text resource.
	Text string
	// Data is the bytes of an image, of audio or of an embedded binary
	// resource.
	Data []byte
	// MIMEType is the media type of an image, of audio or of a resource.
	MIMEType string
	// URI names an embedded resource.
	URI string
}

// ContentKind is what a Content block holds.
type ContentKind uint8

// The kinds of content block.
const (
	// KindText is a text block: Text.
	KindText ContentKind = iota
	// KindImage is an image: Data and MIMEType.
	KindImage
	// KindAudio is audio: Data and MIMEType.
	KindAudio
	// KindResource is an embedded resource: URI and MIMEType, with Text
	// for a text resource or Data for a binary one.
	KindResource
)

// TextResult returns a result of one text block.
func TextResult(text string) *Result {
	return &Result{Content: []Content{{Text: text}}}
}

// Text joins the text blocks of the result, one to a line.
func (r *Result) Text() string {
	var b strings.Builder
	for _, c := range r.Content {
		if c.Kind != KindText {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(c.Text)
	}
	return b.String()
}
