package load

import (
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/joho/godotenv"
	"github.com/mcpgen/mcpgen/runtime/load/regfile"
	"gopkg.in/yaml.v3"
)

// MaxEnvFile is the size of the largest `env_file` read.
const MaxEnvFile = 1 << 20

// envFile reads the `env_file:` of the config whose root is root, in dir,
// and returns lookup extended with its variables: a variable lookup finds
// is never overridden by the file. A missing file is skipped; any other
// problem is reported, and lookup returned as it is. The file's path, if
// it names one, is passed to seen.
func envFile(root *yaml.Node, dir string, lookup LookupEnv, d Reporter, seen func(path string)) LookupEnv {
	n := Field(root, "env_file")
	if n == nil || n.Kind != yaml.ScalarNode || n.Value == "" {
		return lookup // none, or the decoder reports what is wrong
	}
	if strings.Contains(n.Value, "${") {
		d.At(n, "env_file", "env_file is read before variables are expanded, so it cannot use them",
			"write the path as it is, relative to this file: .env")
		return lookup
	}
	p := n.Value
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	seen(p)
	data, err := regfile.Read(p, MaxEnvFile)
	if errors.Is(err, fs.ErrNotExist) {
		return lookup // the variables are expected in the environment
	}
	if err != nil {
		d.At(n, "env_file", p+": "+ReadError(err), "")
		return lookup
	}
	vars, err := godotenv.UnmarshalBytes(data)
	if err != nil {
		line, col, msg := dotenvError(data, err)
		*d.list = append(*d.list, Diagnostic{File: p, Line: line, Col: col, Message: msg, Severity: Error,
			Hint: "a line is NAME=value, NAME=\"value\" or a # comment"})
		return lookup
	}
	return func(name string) (string, bool) {
		if v, ok := lookup(name); ok {
			return v, true
		}
		v, ok := vars[name]
		return v, ok
	}
}

// dotenvError places a parse error of godotenv in the file data and words
// it without the text it quotes, which may hold a secret: the position is
// where the rest of the file that the error quotes starts.
func dotenvError(data []byte, err error) (line, col int, msg string) {
	src := bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")) // as godotenv reads it
	msg, off := err.Error(), -1
	if i := strings.Index(msg, " near "); i >= 0 {
		if rest, uerr := strconv.Unquote(msg[i+len(" near "):]); uerr == nil && len(rest) <= len(src) {
			off = len(src) - len(rest)
		}
		msg = msg[:i]
	}
	if rest, ok := strings.CutPrefix(msg, "unterminated quoted value "); ok {
		off, msg = bytes.Index(src, []byte(rest)), "unterminated quoted value"
	}
	if off < 0 {
		return 1, 0, "env_file: " + msg
	}
	line = 1 + bytes.Count(src[:off], []byte("\n"))
	col = off - bytes.LastIndexByte(src[:off], '\n')
	return line, col, "env_file: " + msg
}
