package pack

import (
	"archive/zip"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/runtime/load"
)

// ManifestVersion is the MCPB manifest version mcpgen writes.
const ManifestVersion = "0.3"

// Bundle is what an MCPB bundle holds.
type Bundle struct {
	// Name (machine-readable), DisplayName, Version and Description of the
	// extension; Author is its author's name.
	Name, DisplayName, Version, Description, Author string
	// Platform is the GOOS/GOARCH the binary runs on.
	Platform string
	// Binary is the path of the mcpgen executable for Platform.
	Binary string
	// Configs are the config files, served together in this order.
	Configs []string
	// Referenced are the paths the configs refer to (runtime's
	// BuildOptions.Referenced): those inside the configs' directory are
	// bundled beside them.
	Referenced []string
	// Env are the environment variables the configs read: each becomes a
	// user_config entry the client asks the user for.
	Env []load.EnvVar
	// Tools are listed in the manifest.
	Tools []Tool
	// Prompts are listed in the manifest (see NewPrompt).
	Prompts []Prompt
}

// Tool is a tool listed in a manifest.
type Tool struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
}

// manifest is an MCPB manifest, as much of it as mcpgen writes.
type manifest struct {
	ManifestVersion string `json:"manifest_version"`
	Name            string `json:"name"`
	DisplayName     string `json:"display_name,omitempty"`
	Version         string `json:"version"`
	Description     string `json:"description"`
	Author          struct {
		Name string `json:"name"`
	} `json:"author"`
	Server struct {
		Type       string    `json:"type"`
		EntryPoint string    `json:"entry_point"`
		MCPConfig  mcpConfig `json:"mcp_config"`
	} `json:"server"`
	Tools         []Tool                `json:"tools,omitempty"`
	Prompts       []Prompt              `json:"prompts,omitempty"`
	Compatibility map[string][]string   `json:"compatibility"`
	UserConfig    map[string]userConfig `json:"user_config,omitempty"`
}

type mcpConfig struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env,omitempty"`
}

type userConfig struct {
	Type        string `json:"type"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Required    bool   `json:"required"`
	Sensitive   bool   `json:"sensitive,omitempty"`
	Default     string `json:"default,omitempty"`
}

// clientPlatforms are MCPB's names of the operating systems.
var clientPlatforms = map[string]string{"darwin": "darwin", "windows": "win32", "linux": "linux"}

// Write writes the bundle, a zip, to w. It returns warnings about the
// referenced files it leaves out.
func (b *Bundle) Write(w io.Writer) ([]string, error) {
	goos, _, _ := strings.Cut(b.Platform, "/")
	osName, ok := clientPlatforms[goos]
	if !ok {
		return nil, fmt.Errorf("MCPB bundles run on darwin, linux and windows, not %s", goos)
	}
	root, err := commonDir(b.Configs)
	if err != nil {
		return nil, err
	}
	entry := "server/mcpgen"
	if goos == "windows" {
		entry += ".exe"
	}
	files := map[string]string{entry: b.Binary} // path in the bundle → file on disk
	var args []string
	for _, c := range b.Configs {
		rel, err := inside(root, c)
		if err != nil {
			return nil, err
		}
		files["config/"+rel] = c
		args = append(args, "${__dirname}/config/"+rel)
	}
	warnings, err := b.addReferenced(files, root)
	if err != nil {
		return nil, err
	}
	m := b.manifest(entry, osName, args)
	if err := validate(manifestSchema, m); err != nil {
		return nil, fmt.Errorf("the manifest does not match the MCPB schema: %w", err)
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	return warnings, writeZip(w, data, files, entry)
}

func (b *Bundle) manifest(entry, osName string, configs []string) *manifest {
	m := &manifest{ManifestVersion: ManifestVersion, Name: b.Name, DisplayName: b.DisplayName,
		Version: cmp.Or(b.Version, "0.1.0"), Tools: b.Tools, Prompts: b.Prompts,
		Description:   cmp.Or(b.Description, "MCP server "+b.Name+", served by mcpgen"),
		Compatibility: map[string][]string{"platforms": {osName}}}
	m.Author.Name = cmp.Or(b.Author, "unknown")
	m.Server.Type, m.Server.EntryPoint = "binary", entry
	m.Server.MCPConfig = mcpConfig{Command: "${__dirname}/" + entry, Args: append([]string{"serve"}, configs...)}
	for _, v := range b.Env {
		if m.UserConfig == nil {
			m.UserConfig, m.Server.MCPConfig.Env = map[string]userConfig{}, map[string]string{}
		}
		m.UserConfig[v.Name] = userConfig{Type: "string", Title: v.Name, Required: !v.HasDefault,
			Sensitive: v.Secret, Default: v.Default,
			Description: fmt.Sprintf("${%s} in the config; set as the environment variable %s.", v.Name, v.Name)}
		m.Server.MCPConfig.Env[v.Name] = "${user_config." + v.Name + "}"
	}
	return m
}

// addReferenced adds the referenced files and directories inside root.
// The configs' own directories (a shell tool's default working directory)
// are not bundled whole.
func (b *Bundle) addReferenced(files map[string]string, root string) ([]string, error) {
	var warnings []string
	dirs := map[string]bool{}
	for _, c := range b.Configs {
		d, _ := filepath.Abs(filepath.Dir(c))
		dirs[d] = true
	}
	for _, p := range slices.Sorted(slices.Values(b.Referenced)) {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		info, err := os.Stat(abs)
		if err != nil || dirs[abs] {
			continue // created at run time (a database), or the configs' directory
		}
		rel, err := inside(root, abs)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("%s is outside the configs' directory and is not bundled: "+
				"it must exist at that path on the user's machine", p))
			continue
		}
		if target, ok := linksOut(root, abs); ok {
			warnings = append(warnings, fmt.Sprintf("%s is a link to %s, outside the configs' directory, and is not bundled: "+
				"copy the file in, or it must exist at that path on the user's machine", p, target))
			continue
		}
		if !info.IsDir() {
			if info.Mode().IsRegular() {
				files["config/"+rel] = abs
			}
			continue
		}
		err = filepath.WalkDir(abs, func(q string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			r, _ := filepath.Rel(root, q)
			files["config/"+filepath.ToSlash(r)] = q
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return warnings, nil
}

// linksOut reports whether p, inside root, is (or is under) a symbolic
// link whose target is outside root, and returns the target: the rule
// serving applies to resource files (os.Root), so that a bundle never
// carries a file from elsewhere on the packer's machine.
func linksOut(root, p string) (string, bool) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", false
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", false
	}
	if _, err := inside(realRoot, real); err != nil {
		return real, true
	}
	return "", false
}

// commonDir is the deepest directory holding every path.
func commonDir(paths []string) (string, error) {
	if len(paths) == 0 {
		return "", errors.New("no config file given")
	}
	var root string
	for i, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return "", err
		}
		d := filepath.Dir(abs)
		if i == 0 {
			root = d
			continue
		}
		for !strings.HasPrefix(d+string(filepath.Separator), root+string(filepath.Separator)) && root != filepath.Dir(root) {
			root = filepath.Dir(root)
		}
	}
	return root, nil
}

// inside returns p relative to root, with forward slashes, or an error
// when p is not under root.
func inside(root, p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside %s", p, root)
	}
	return filepath.ToSlash(rel), nil
}

// writeZip writes the manifest then the files, sorted, with a fixed time:
// the same inputs give the same bytes.
func writeZip(w io.Writer, manifest []byte, files map[string]string, executable string) error {
	zw := zip.NewWriter(w)
	stamp := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	add := func(name string, mode fs.FileMode, r io.Reader) error {
		h := &zip.FileHeader{Name: name, Method: zip.Deflate, Modified: stamp}
		h.SetMode(mode)
		fw, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		_, err = io.Copy(fw, r)
		return err
	}
	if err := add("manifest.json", 0o644, bytes.NewReader(manifest)); err != nil {
		return err
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		mode := fs.FileMode(0o644)
		if name == executable {
			mode = 0o755
		}
		if err := addFile(add, path.Clean(name), files[name], mode); err != nil {
			return err
		}
	}
	return zw.Close()
}

func addFile(add func(string, fs.FileMode, io.Reader) error, name, src string, mode fs.FileMode) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	return add(name, mode, f)
}
