package mask

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"
)

// A secret leaves the server in other forms than as written: inside JSON
// text (escaped), in a URL (percent-encoded), in a header or a token
// (base64). maskingReplacer masks every form in one pass over the text.

// minEncoded is the shortest part of a base64 encoding that is masked
// inside a longer one: shorter runs of base64 letters turn up by chance.
const minEncoded = 6

// maskingReplacer returns a matcher replacing each of values, in each of
// the forms it may take (see forms), with "****". Longer forms come first,
// so that a form containing another is masked whole.
func maskingReplacer(values []string) *matcher {
	var all []string
	for _, v := range values {
		for _, f := range forms(v) {
			if !slices.Contains(all, f) {
				all = append(all, f)
			}
		}
	}
	slices.SortStableFunc(all, func(a, b string) int { return len(b) - len(a) })
	return newMatcher(all)
}

// Echoes of a secret that are not the secret as written, masked too: in
// upper or lower case (a service normalizing what it quotes back), its
// first prefixLen characters (a service quoting "ghp_16C7e42F29... is
// revoked"), and a secret URL's path (a webhook's secret is its path, which
// a log line names without the host).
const (
	minCaseChanged = 8  // a secret at least this long is masked in upper and lower case
	minPrefixed    = 16 // a secret at least this long is masked by its first prefixLen characters
	prefixLen      = 12
	minURLPath     = 12 // a secret URL's path at least this long is masked on its own
)

// forms returns v as written and as it appears escaped in JSON text,
// percent-encoded in a URL and encoded in base64, and its echoes.
func forms(v string) []string {
	out := []string{v}
	add := func(f string) {
		if f != "" && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	for _, f := range echoes(v) {
		add(f)
	}
	for _, f := range jsonForms(v) {
		add(f)
	}
	for _, f := range []string{url.QueryEscape(v), url.PathEscape(v)} {
		add(f)
		add(lowerHex(f))
	}
	for _, f := range base64Forms([]byte(v)) {
		add(f)
	}
	return out
}

// echoes are the other shapes in which v is quoted back (see the
// constants above).
func echoes(v string) []string {
	var out []string
	if len(v) >= minCaseChanged {
		out = append(out, strings.ToUpper(v), strings.ToLower(v))
	}
	u, err := url.Parse(v)
	isURL := err == nil && u.Scheme != "" && u.Host != ""
	if isURL && len(u.Path) >= minURLPath {
		out = append(out, u.Path, u.EscapedPath())
	}
	if !isURL && utf8.RuneCountInString(v) >= minPrefixed {
		out = append(out, string([]rune(v)[:prefixLen]))
	}
	return out
}

// jsonForms are v inside a JSON string: escaped as encoding/json does,
// with and without HTML escaping, and with / escaped as \/.
func jsonForms(v string) []string {
	var out []string
	for _, html := range []bool{true, false} {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(html)
		_ = enc.Encode(v) // a string always encodes
		s := strings.TrimSuffix(b.String(), "\n")
		out = append(out, s[1:len(s)-1])
	}
	return append(out, strings.ReplaceAll(out[1], "/", `\/`))
}

// lowerHex writes the %XX escapes of s in lower case, as some encoders do.
func lowerHex(s string) string {
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' {
			b[i+1], b[i+2] = toLower(b[i+1]), toLower(b[i+2])
			i += 2
		}
	}
	return string(b)
}

func toLower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// base64Forms are the encodings of v in the standard and URL alphabets:
// whole, with and without padding, and, for v inside longer data, the part
// of the encoding that v alone decides at each of the three offsets it can
// start at (the encoding of three bytes is four letters, so the letters
// around v depend on its neighbours).
func base64Forms(v []byte) []string {
	var out []string
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		out = append(out, enc.EncodeToString(v), enc.WithPadding(base64.NoPadding).EncodeToString(v))
		for offset := range 3 {
			if core := base64Core(enc, v, offset); len(core) >= minEncoded {
				out = append(out, core)
			}
		}
	}
	return out
}

// base64Core is the part of the encoding of v, preceded by offset other
// bytes, that depends on v alone: the letters whose six bits all come
// from v.
func base64Core(enc *base64.Encoding, v []byte, offset int) string {
	padded := append(make([]byte, offset), v...)
	s := enc.WithPadding(base64.NoPadding).EncodeToString(padded)
	first := (8*offset + 5) / 6       // the first letter that starts within v
	last := 8 * (offset + len(v)) / 6 // letters before this end within v
	if first >= last {
		return ""
	}
	return s[first:last]
}
