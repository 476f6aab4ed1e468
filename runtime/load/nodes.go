package load

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Node returns the node at a diagnostic path of f such as
// tools[1].handler.url, or the deepest node on the way there.
func (f *File) Node(path string) *yaml.Node { return locate(f.Root, path) }

// Given reports whether the last key of path is written in f. A required
// key that is not has been reported when f was loaded; checks of its value
// would only repeat that.
func (f *File) Given(path string) bool {
	i := strings.LastIndexByte(path, '.')
	parent := locate(f.Root, path[:max(i, 0)])
	return keyNode(parent, path[i+1:]) != nil
}

// Checkable reports whether the value at path is written in f and known:
// not a variable left unset because of Options.SkipEnv. Checks of a value
// that is not checkable would report the variable's absence, not a mistake.
func (f *File) Checkable(path string) bool {
	if !f.Given(path) {
		return false
	}
	n := f.Node(path)
	return n == nil || !f.unset[Resolve(n)]
}

// Skipped reports whether the value at path is written in f with a
// variable left unset because of Options.SkipEnv: a warning about it
// would be about the missing variable, which the user asked not to hear.
func (f *File) Skipped(path string) bool {
	return f.Written(path) && f.unset[Resolve(f.Node(path))]
}

// DecodeHandler decodes the settings of the handler whose mapping is body
// (all its keys but kind and backend) into cfg, a pointer to a backend
// kind's configuration, as strictly as the rest of the file; path names
// body in diagnostics. Environment references were expanded when f was
// loaded. It appends problems to ds and reports whether there were none.
func (f *File) DecodeHandler(path string, body *yaml.Node, cfg any, ds *Diagnostics) bool {
	before := len(*ds)
	n := *body
	n.Content = nil
	for i := 0; i+1 < len(body.Content); i += 2 {
		if k := body.Content[i].Value; k == "kind" || k == "backend" || isBackendPath(path) && slices.Contains(backendKeys, k) {
			continue
		}
		n.Content = append(n.Content, body.Content[i], body.Content[i+1])
	}
	dc := &decoder{d: f.Reporter(ds), raw: true, unset: f.unset}
	dc.decode(&n, reflect.ValueOf(cfg).Elem(), rootPlace(path))
	return len(*ds) == before
}

// JSON renders a YAML value as JSON, keeping the order of keys, so that a
// schema written in YAML is served as written.
func JSON(n *yaml.Node) ([]byte, error) {
	var b bytes.Buffer
	err := writeNodeJSON(&b, n)
	return b.Bytes(), err
}

func writeNodeJSON(b *bytes.Buffer, n *yaml.Node) error {
	n = Resolve(n)
	switch n.Kind {
	case yaml.MappingNode:
		b.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONString(b, n.Content[i].Value)
			b.WriteByte(':')
			if err := writeNodeJSON(b, n.Content[i+1]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case yaml.SequenceNode:
		b.WriteByte('[')
		for i, e := range n.Content {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeNodeJSON(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	default:
		if n.Tag == "!!str" {
			writeJSONString(b, n.Value)
			return nil
		}
		x := scalarAny(n.Tag, n.Value)
		if f, ok := x.(float64); ok && (math.IsInf(f, 0) || math.IsNaN(f)) {
			return fmt.Errorf("%s is not a JSON number", n.Value)
		}
		enc, err := json.Marshal(x)
		if err != nil {
			return err
		}
		b.Write(enc)
	}
	return nil
}

// writeJSONString writes s as json.Marshal does, byte for byte: HTML
// characters, U+2028 and U+2029 escaped, invalid UTF-8 as U+FFFD. Without
// its reflection and copies: a thousand imported schemas are hundreds of
// thousands of strings.
func writeJSONString(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b.WriteString(s[start:i])
			switch c {
			case '"', '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case '\b':
				b.WriteString(`\b`)
			case '\f':
				b.WriteString(`\f`)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case '\t':
				b.WriteString(`\t`)
			default:
				b.WriteString(`\u00`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
			b.WriteString(s[start:i])
			switch r {
			case utf8.RuneError:
				b.WriteString(`\ufffd`)
			default:
				b.WriteString(`\u202`)
				b.WriteByte(hex[r&0xf])
			}
			start = i + size
		}
		i += size
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}

// locate finds the node at a diagnostic path below root, or the deepest
// node on the way there.
// Written reports whether every step of path is written in f: each key is
// there and each index is inside its list.
func (f *File) Written(path string) bool {
	n := f.Root
	for _, seg := range splitPath(path) {
		if idx, err := index(seg); err == nil && Resolve(n).Kind == yaml.SequenceNode {
			s := Resolve(n)
			if idx >= len(s.Content) {
				return false
			}
			n = s.Content[idx]
		} else if n = Field(n, seg); n == nil {
			return false
		}
	}
	return true
}

func locate(root *yaml.Node, path string) *yaml.Node {
	n := root
	for _, seg := range splitPath(path) {
		var next *yaml.Node
		if idx, err := index(seg); err == nil && Resolve(n).Kind == yaml.SequenceNode {
			if s := Resolve(n); idx < len(s.Content) {
				next = Resolve(s.Content[idx])
			}
		} else {
			next = Field(n, seg)
			if next == nil {
				// a field inlined from another struct, or missing: stay
				continue
			}
		}
		if next == nil {
			break
		}
		n = next
	}
	return n
}

// index is strconv.Atoi for a path segment, without making an error for a
// segment that is a key, as most are.
func index(seg string) (int, error) {
	if seg == "" || !strings.ContainsRune("0123456789+-", rune(seg[0])) {
		return 0, strconv.ErrSyntax
	}
	return strconv.Atoi(seg)
}

func splitPath(path string) []string {
	var segs []string
	for _, part := range strings.Split(path, ".") {
		for part != "" {
			i := strings.IndexByte(part, '[')
			if i < 0 {
				segs = append(segs, part)
				break
			}
			if i > 0 {
				segs = append(segs, part[:i])
			}
			j := strings.IndexByte(part[i:], ']')
			if j < 0 {
				break
			}
			segs = append(segs, part[i+1:i+j])
			part = part[i+j+1:]
		}
	}
	return segs
}
