package build

import "github.com/mcpgen/mcpgen/runtime/load"

// configFiles reports the config files f was read from to
// Options.Referenced: f itself, which may be included by another, and its
// overlay, so that reload watches them and pack bundles them. An
// `env_file` and the files of ${file:PATH} hold secrets: never bundled.
func (b *builder) configFiles(f *load.File) {
	if b.opts.Referenced == nil {
		return
	}
	b.opts.Referenced(f.Path)
	if f.Overlay != "" {
		b.opts.Referenced(f.Overlay)
	}
}
