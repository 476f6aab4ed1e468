package load

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/load/regfile"
	"gopkg.in/yaml.v3"
)

// loader reads config files and the files they include.
type loader struct {
	opts  Options
	files []*File
	ds    Diagnostics
	seen  map[string]bool // files loaded, by absolute path
	stack []string        // the files being included, as given, outermost first
	keys  []string        // the same, absolute
}

// includeEntry is the entry of `include:` that names a file.
type includeEntry struct {
	from *File
	n    *yaml.Node
	path string // include[i]
	text string // the entry as written
}

func (e *includeEntry) report(l *loader, msg, hint string) {
	e.from.Reporter(&l.ds).At(e.n, e.path, msg, hint)
}

// load reads the config file at p, with lookup for its variables, then
// the files it includes; from is the entry that includes it, nil for a
// file given by the user.
func (l *loader) load(p string, lookup LookupEnv, from *includeEntry) {
	key := absPath(p)
	if i := slices.Index(l.keys, key); i >= 0 {
		chain := strings.Join(append(slices.Clone(l.stack[i:]), p), " → ")
		from.report(l, "include cycle: "+chain, "a file cannot include itself, directly or through the files it includes")
		return
	}
	if l.seen[key] {
		return // included twice, or given and included: loaded once
	}
	l.seen[key] = true
	data, err := regfile.Read(p, 0)
	if err != nil {
		if from == nil {
			l.ds = append(l.ds, Diagnostic{File: p, Message: ReadError(err), Severity: Error})
		} else {
			from.report(l, fmt.Sprintf("%s: %s", p, ReadError(err)), includeHint(p, from.text))
		}
		return
	}
	opts := l.opts
	opts.LookupEnv = lookup
	f, fds := Bytes(p, data, opts)
	l.ds = append(l.ds, fds...)
	if f == nil {
		return
	}
	l.files = append(l.files, f)
	l.stack, l.keys = append(l.stack, p), append(l.keys, key)
	l.includes(f)
	l.stack, l.keys = l.stack[:len(l.stack)-1], l.keys[:len(l.keys)-1]
}

// includes loads the files of f's `include:` entries, in order; a glob's
// matches in lexical order.
func (l *loader) includes(f *File) {
	list := Field(f.Root, "include")
	if list == nil || list.Kind != yaml.SequenceNode {
		return // none, or the decoder reported it
	}
	for i, entry := range f.Config.Include {
		if entry == "" || i >= len(list.Content) || f.unset[list.Content[i]] {
			continue // empty, or a variable reported unset (or skipped)
		}
		at := &includeEntry{from: f, n: list.Content[i], path: IndexPath("include", i), text: entry}
		p := entry
		if !filepath.IsAbs(p) {
			p = filepath.Join(f.Dir, p)
		}
		if !strings.ContainsAny(entry, "*?[") {
			l.load(p, f.lookup, at)
			continue
		}
		matches, err := filepath.Glob(p)
		switch {
		case err != nil:
			at.report(l, fmt.Sprintf("%q is not a valid glob: %v", entry, err), "`*`, `?` and `[a-z]` match within one directory")
		case len(matches) == 0:
			at.report(l, fmt.Sprintf("%q matches no file", entry), "paths start from the directory of "+f.Path)
		}
		for _, m := range matches {
			l.load(m, f.lookup, at)
		}
	}
}

// includeHint suggests what to do about the included file p, named by
// the entry text, when it cannot be read.
func includeHint(p, text string) string {
	if st, err := os.Stat(p); err == nil && st.IsDir() {
		if strings.ContainsAny(text, "*?[") {
			text = p // a match of the glob
		}
		return "include the files in it with a glob: " + filepath.ToSlash(filepath.Join(text, "*.yaml"))
	}
	return "paths start from the directory of the including file"
}

// absPath is p made absolute, with symbolic links resolved where they
// can be, so that one file has one key.
func absPath(p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	if r, err := filepath.EvalSymlinks(a); err == nil {
		return r
	}
	return a
}
