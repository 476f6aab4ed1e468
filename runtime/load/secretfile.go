package load

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/load/regfile"
)

// MaxSecretFile is the size of the largest file ${file:PATH} reads: a
// secret (a password, a token, a key) is far smaller, and a larger file
// is a mistake.
const MaxSecretFile = 64 << 10

// secretFileReader returns the reader of ${file:PATH} for a config file in
// dir: a relative PATH starts from dir; the file must be a regular file of
// at most MaxSecretFile bytes, read without blocking; one trailing line
// break is dropped, as `echo` and editors leave one. Each path read, or
// tried, is passed to seen.
func secretFileReader(dir string, seen func(path string)) func(path string) (string, error) {
	return func(path string) (string, error) {
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		seen(path)
		data, err := regfile.Read(path, MaxSecretFile)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return "", fs.ErrNotExist
			}
			return "", errors.New(regfile.Message(err))
		}
		s := strings.TrimSuffix(string(data), "\n")
		return strings.TrimSuffix(s, "\r"), nil
	}
}
