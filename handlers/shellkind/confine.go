package shellkind

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/spec/suggest"
)

// checkPathArgs checks the names in path_args: each must be an argument of
// the tool, or it would confine nothing.
func (c *Config) checkPathArgs(env handlers.BuildEnv, h *handler) {
	var props map[string]any
	if ti, ok := env.(handlers.ToolInput); ok && ti.ToolInputSchema() != nil {
		props, _ = ti.ToolInputSchema()["properties"].(map[string]any)
	}
	for i, name := range c.PathArgs {
		switch _, known := props[name]; {
		case !envName.MatchString(name):
			env.Diag(fmt.Sprintf("path_args[%d]", i), fmt.Sprintf("%q is not an argument name", name))
		case props != nil && !known:
			msg := fmt.Sprintf("the tool has no argument %q: it would confine nothing", name)
			if h := suggest.DidYouMean(name, slices.Sorted(maps.Keys(props))); h != "" {
				msg += "; " + h
			}
			env.Diag(fmt.Sprintf("path_args[%d]", i), msg)
		}
	}
	h.pathArgs = c.PathArgs
}

// confine refuses a call whose path arguments leave the working directory.
func (h *handler) confine(args map[string]any) error {
	if len(h.pathArgs) == 0 {
		return nil
	}
	root, err := os.OpenRoot(h.dir)
	if err != nil {
		return fmt.Errorf("the working directory: %w", err)
	}
	defer root.Close()
	for _, name := range h.pathArgs {
		var paths []any
		switch v := args[name].(type) {
		case nil:
		case []any:
			paths = v
		default:
			paths = []any{v}
		}
		for _, p := range paths {
			s, ok := p.(string)
			if !ok {
				return fmt.Errorf("argument %s: a path is a string", name)
			}
			if err := confined(root, s); err != nil {
				return fmt.Errorf("argument %s: %w", name, err)
			}
		}
	}
	return nil
}

// confined refuses a path that is absolute, holds a ".." segment or
// resolves, through symbolic links, outside root. A path that does not
// exist (yet) inside root is the command's to report.
func confined(root *os.Root, p string) error {
	switch {
	case filepath.IsAbs(p):
		return fmt.Errorf("%q is an absolute path; give a path inside the working directory", p)
	case strings.Contains(p, "\x00"):
		return fmt.Errorf("the path %q holds a NUL byte", p)
	case dotDot(p):
		return fmt.Errorf("%q holds a \"..\" segment; give a path inside the working directory", p)
	}
	if p == "" {
		return nil
	}
	if _, err := root.Stat(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%q leads outside the working directory or cannot be read", p)
	}
	return nil
}

// dotDot reports whether p has a ".." segment.
func dotDot(p string) bool {
	for _, seg := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == filepath.Separator }) {
		if seg == ".." {
			return true
		}
	}
	return false
}
