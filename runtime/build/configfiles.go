package build

import "github.com/mcpgen/mcpgen/runtime/load"

// configFiles reports the config files f was read from to
// Options.Referenced: f itself, which may be included by another, and its
// overlay, so that reload watches them and pack bundles them; and the
// files holding secrets it read to Options.SecretFiles, never to
// Referenced (pack would bundle them).
func (b *builder) configFiles(f *load.File) {
	if b.opts.SecretFiles != nil {
		for _, p := range f.SecretFiles {
			b.opts.SecretFiles(p)
		}
	}
	if b.opts.Referenced == nil {
		return
	}
	b.opts.Referenced(f.Path)
	if f.Overlay != "" {
		b.opts.Referenced(f.Overlay)
	}
}
