package load

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// LookupEnv finds an environment variable; os.LookupEnv in production.
type LookupEnv func(name string) (string, bool)

// expandError is a problem with one environment reference in a scalar.
type expandError struct {
	off int // byte offset of the reference in the scalar
	msg string
}

// envRef is one well-formed environment reference in a scalar.
type envRef struct {
	name   string
	off    int    // byte offset of its "${" in the scalar
	value  string // what the environment gave, if it was set and not empty
	def    string // the default after :-
	hasDef bool
	// from and to are the bytes of the expanded text the value took
	from, to int
	// file is set for ${file:PATH}; name is then "file:PATH"
	file bool
}

// expander expands the references of scalars.
type expander struct {
	lookup LookupEnv
	// readFile reads the file of ${file:PATH}; nil reads none, as if
	// every file were missing
	readFile func(path string) (string, error)
	// skip leaves unset variables and missing files unreported
	skip bool
}

// expand replaces ${NAME} and ${NAME:-default} in s with values from lookup;
// the default is expanded in turn when it is used, so ${A:-${B}} nests.
// ${NAME:+text} is text (expanded in turn) when NAME is set and not empty,
// and nothing otherwise: an optional part, such as a path prefix.
// $${ stands for a literal ${, and ${{ opens an expression, which is left
// alone. It returns the expanded text, every well-formed reference (set or
// not) and every problem found.
func expand(s string, lookup LookupEnv, skipMissing bool) (string, []envRef, []expandError) {
	return expander{lookup: lookup, skip: skipMissing}.expand(s)
}

// expand is expand with x's sources; ${file:PATH} and
// ${file:PATH:-default} take a file's contents (see readFile).
func (x expander) expand(s string) (string, []envRef, []expandError) {
	lookup, skipMissing := x.lookup, x.skip
	if !strings.Contains(s, "${") {
		return s, nil, nil
	}
	var (
		b    strings.Builder
		refs []envRef
		errs []expandError
		i    int
	)
	for i < len(s) {
		j := strings.Index(s[i:], "${")
		if j < 0 {
			b.WriteString(s[i:])
			break
		}
		j += i
		switch {
		case j > 0 && s[j-1] == '$' && strings.HasPrefix(s[j:], "${{"):
			// $${{ is a literal ${{: leave it for the expression compiler
			b.WriteString(s[i : j+3])
			i = j + 3
			continue
		case j > 0 && s[j-1] == '$': // $${ is an escaped ${
			b.WriteString(s[i : j-1])
			b.WriteString("${")
			i = j + 2
			continue
		case strings.HasPrefix(s[j:], "${{"): // an expression, not ours
			end := strings.Index(s[j:], "}}")
			if end < 0 {
				end = len(s) - j - 2
			}
			b.WriteString(s[i : j+end+2])
			i = j + end + 2
			continue
		}
		b.WriteString(s[i:j])
		end := closingBrace(s[j:])
		if end < 0 {
			errs = append(errs, expandError{j, "unterminated ${: expected }"})
			b.WriteString(s[j:])
			break
		}
		ref := s[j+2 : j+end]
		i = j + end + 1
		if path, ok := strings.CutPrefix(ref, "file:"); ok {
			r, e := x.file(&b, path, j)
			refs, errs = append(refs, r...), append(errs, e...)
			continue
		}
		name, def, hasDef := strings.Cut(ref, ":-")
		alt, hasAlt := "", false
		if !hasDef {
			name, alt, hasAlt = strings.Cut(ref, ":+")
		}
		if !validEnvName(name) {
			errs = append(errs, expandError{j, fmt.Sprintf("invalid environment reference ${%s}: a name is letters, digits and _", ref)})
			continue
		}
		r := envRef{name: name, off: j, def: def, hasDef: hasDef || hasAlt}
		if hasAlt { // ${A:+text}: text when A is set and not empty, else nothing
			v, _ := lookup(name)
			r.value = v
			refs = append(refs, r)
			if v == "" {
				continue
			}
			text, inner, innerErrs := x.expand(alt)
			out, at := b.Len(), j+2+len(name)+2
			b.WriteString(text)
			for _, ir := range inner {
				ir.off, ir.from, ir.to = ir.off+at, ir.from+out, ir.to+out
				refs = append(refs, ir)
			}
			for _, ie := range innerErrs {
				ie.off += at
				errs = append(errs, ie)
			}
			continue
		}
		if v, ok := lookup(name); ok && (v != "" || !hasDef) {
			r.value, r.from, r.to = v, b.Len(), b.Len()+len(v)
			b.WriteString(v)
			refs = append(refs, r)
			continue
		}
		refs = append(refs, r)
		if hasDef { // the default may refer to variables too: ${A:-${B}}
			text, inner, innerErrs := x.expand(def)
			out := b.Len()
			b.WriteString(text)
			at := j + 2 + len(name) + 2
			for _, ir := range inner {
				ir.off += at
				ir.from, ir.to = ir.from+out, ir.to+out
				refs = append(refs, ir)
			}
			for _, ie := range innerErrs {
				ie.off += at
				errs = append(errs, ie)
			}
			continue
		}
		if !skipMissing {
			errs = append(errs, expandError{j, fmt.Sprintf("${%s} is not set and has no default", name)})
		}
	}
	return b.String(), refs, errs
}

// file writes the contents of the file of ${file:PATH[:-default]}, at
// byte off of the scalar, to b, or its default when the file does not
// exist; a missing file without a default is an error unless x.skip.
func (x expander) file(b *strings.Builder, ref string, off int) ([]envRef, []expandError) {
	path, def, hasDef := strings.Cut(ref, ":-")
	if path == "" {
		return nil, []expandError{{off, "${file:} needs a path: ${file:/run/secrets/NAME}"}}
	}
	r := envRef{name: "file:" + path, off: off, def: def, hasDef: hasDef, file: true}
	err := fs.ErrNotExist
	var v string
	if x.readFile != nil {
		v, err = x.readFile(path)
	}
	switch {
	case err == nil:
		r.value, r.from, r.to = v, b.Len(), b.Len()+len(v)
		b.WriteString(v)
		return []envRef{r}, nil
	case errors.Is(err, fs.ErrNotExist) && hasDef:
		text, inner, innerErrs := x.expand(def)
		at, out := off+2+len("file:")+len(path)+2, b.Len()
		b.WriteString(text)
		refs := []envRef{r}
		for _, ir := range inner {
			ir.off, ir.from, ir.to = ir.off+at, ir.from+out, ir.to+out
			refs = append(refs, ir)
		}
		for k := range innerErrs {
			innerErrs[k].off += at
		}
		return refs, innerErrs
	case errors.Is(err, fs.ErrNotExist) && x.skip:
		return []envRef{r}, nil
	case errors.Is(err, fs.ErrNotExist):
		return []envRef{r}, []expandError{{off, fmt.Sprintf("${file:%s}: the file does not exist and there is no default", path)}}
	}
	return []envRef{r}, []expandError{{off, fmt.Sprintf("${file:%s}: %v", path, err)}}
}

// closingBrace returns the offset of the } that closes the ${ at the start
// of s, past any ${ … } nested in a default, or -1.
func closingBrace(s string) int {
	depth := 0
	for k := 0; k < len(s); k++ {
		switch {
		case strings.HasPrefix(s[k:], "${"):
			depth++
			k++
		case s[k] == '}':
			depth--
			if depth == 0 {
				return k
			}
		}
	}
	return -1
}

func validEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_', 'A' <= r && r <= 'Z', 'a' <= r && r <= 'z':
		case '0' <= r && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
