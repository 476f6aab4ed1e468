package build

import (
	"fmt"

	"github.com/mcpgen/mcpgen/runtime/load"
)

// A resource or a content file must not be served from /proc, /sys or
// another kernel filesystem: /proc/self/environ holds the server's own
// environment (every secret it was given), /proc/self/mem its memory.
// kernelFS (per platform) finds them; it looks at what a path resolves to
// and, for a directory, at what is mounted below it (a root of / holds
// /proc).

// kernelPath reports, as an error on field, a path that is or holds a
// kernel filesystem; false when there is none.
func (b *builder) kernelPath(f *load.File, field, path string) bool {
	k := kernelFS(path)
	if k == "" {
		return false
	}
	b.errorf(f, field, "%s", fmt.Sprintf("%s is or holds %s, where the server's own environment and memory can be read; serve files from a directory of their own", path, k))
	return true
}
