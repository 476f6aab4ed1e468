package main

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strings"

	"github.com/mcpgen/mcpgen/cmd/mcpgen/internal/pack"
	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/spec"
	"github.com/spf13/cobra"
)

// packFlags are the flags of `mcpgen pack`.
type packFlags struct {
	out, platform, binary, name, version, author, description string
	serverJSON                                                bool
	registryName, mcpbURL, mcpbFile, image, remote            string
}

// packCommand declares `mcpgen pack`.
func packCommand() *cobra.Command {
	var f packFlags
	cmd := newCommand("pack FILE... (-o NAME.mcpb | --server-json --registry-name NAME) [flags]", "bundle configs for desktop clients (MCPB) or the MCP registry",
		func(ctx context.Context, files []string, std stdio) int { return runPack(ctx, files, std, f) })
	fs := cmd.Flags()
	fs.StringVarP(&f.out, "output", "o", "", "write to this file: the .mcpb bundle, or server.json (standard output when not given)")
	fs.StringVar(&f.platform, "platform", "", "OS/ARCH the bundle runs on, e.g. darwin/arm64: mcpgen is built for it with Go from the source in the current module (default: this mcpgen, for "+goruntime.GOOS+"/"+goruntime.GOARCH+")")
	fs.StringVar(&f.binary, "binary", "", "the mcpgen executable to bundle (a release binary for --platform)")
	fs.StringVar(&f.name, "name", "", "the extension's name (default: server.name, or the first config's file name)")
	fs.StringVar(&f.version, "version", "", "the version (default: server.version, or 0.1.0)")
	fs.StringVar(&f.author, "author", "", "the author's name, shown by clients")
	fs.StringVar(&f.description, "description", "", "one sentence saying what the server does (default: server.instructions)")
	fs.BoolVar(&f.serverJSON, "server-json", false, "write a server.json for the MCP registry instead of a bundle")
	fs.StringVar(&f.registryName, "registry-name", "", "the server's name in the registry, e.g. io.github.alice/weather (server.json)")
	fs.StringVar(&f.mcpbURL, "mcpb-url", "", "where users download the bundle given with --mcpb (server.json)")
	fs.StringVar(&f.mcpbFile, "mcpb", "", "the .mcpb bundle published at --mcpb-url, for its checksum (server.json)")
	fs.StringVar(&f.image, "image", "", "an OCI image whose entrypoint is mcpgen and whose /config holds the configs (server.json)")
	fs.StringVar(&f.remote, "remote", "", "the URL of a deployment serving over HTTP (server.json; default: server.http.auth.resource)")
	return cmd
}

func runPack(ctx context.Context, files []string, std stdio, f packFlags) int {
	switch {
	case len(files) == 0:
		return usageError(std.err, "pack", "no config file given")
	case !f.serverJSON && f.out == "":
		return usageError(std.err, "pack", "give -o NAME.mcpb, the bundle to write")
	case f.serverJSON && f.registryName == "":
		return usageError(std.err, "pack", "give --registry-name, e.g. io.github.alice/weather")
	}
	var referenced []string
	srv, ds := compile(files, load.Options{SkipEnv: true}, runtime.BuildOptions{Registry: builtin.Registry(),
		Referenced: func(p string) { referenced = append(referenced, p) }})
	if srv == nil || ds.Errors() > 0 {
		for _, d := range ds {
			fmt.Fprintln(std.err, d)
		}
		fmt.Fprintln(std.err, ds.Summary())
		return exitError
	}
	srv.Close()
	info, err := describeConfigs(files)
	if err != nil {
		fmt.Fprintf(std.err, "mcpgen: %v\n", err)
		return exitError
	}
	if f.serverJSON {
		return packServerJSON(f, files, info, std)
	}
	return packBundle(ctx, f, files, referenced, info, std)
}

// configInfo is what the configs say about the server.
type configInfo struct {
	server  spec.Server
	remote  string // server.http.auth.resource
	addr    string // server.http.addr
	tools   []pack.Tool
	prompts []pack.Prompt
	env     []load.EnvVar
}

// describeConfigs reads the server's settings, tools and environment
// variables from the configs.
func describeConfigs(files []string) (*configInfo, error) {
	loaded, ds := load.Files(files, load.Options{SkipEnv: true})
	if ds.Errors() > 0 {
		return nil, ds
	}
	info := &configInfo{}
	seen := map[string]bool{}
	for _, lf := range loaded {
		c := lf.Config
		info.server.Name = cmp.Or(info.server.Name, c.Server.Name)
		info.server.Version = cmp.Or(info.server.Version, c.Server.Version)
		info.server.Title = cmp.Or(info.server.Title, c.Server.Title)
		info.server.Instructions = cmp.Or(info.server.Instructions, c.Server.Instructions)
		if h := c.Server.HTTP; h != nil {
			info.addr = cmp.Or(info.addr, h.Addr)
			if h.Auth != nil {
				info.remote = cmp.Or(info.remote, h.Auth.Resource)
			}
		}
		for _, t := range c.Tools {
			if t != nil {
				info.tools = append(info.tools, pack.Tool{Name: t.Name, Description: t.Description})
			}
		}
		for _, p := range c.Prompts {
			if p != nil {
				info.prompts = append(info.prompts, pack.NewPrompt(p))
			}
		}
		data, err := os.ReadFile(lf.Path)
		if err != nil {
			return nil, err
		}
		vars, err := load.EnvVars(data)
		if err != nil {
			return nil, err
		}
		for _, v := range vars {
			if !seen[v.Name] {
				seen[v.Name] = true
				info.env = append(info.env, v)
			}
		}
	}
	return info, nil
}

func packBundle(ctx context.Context, f packFlags, files, referenced []string, info *configInfo, std stdio) int {
	b := &pack.Bundle{Name: cmp.Or(f.name, info.server.Name, strings.TrimSuffix(filepath.Base(files[0]), filepath.Ext(files[0]))),
		DisplayName: info.server.Title, Version: cmp.Or(f.version, info.server.Version), Author: f.author,
		Description: cmp.Or(f.description, info.server.Instructions), Configs: files, Referenced: referenced,
		Env: info.env, Tools: info.tools, Prompts: info.prompts, Platform: cmp.Or(f.platform, goruntime.GOOS+"/"+goruntime.GOARCH), Binary: f.binary}
	dir, err := os.MkdirTemp("", "mcpgen-pack")
	if err != nil {
		fmt.Fprintf(std.err, "mcpgen: %v\n", err)
		return exitError
	}
	defer os.RemoveAll(dir)
	if b.Binary == "" {
		if b.Binary, err = packBinary(ctx, f.platform, dir, std); err != nil {
			fmt.Fprintf(std.err, "mcpgen: %v\n", err)
			return exitError
		}
	} else if pack.HasDebugInfo(b.Binary) {
		fmt.Fprintf(std.err, "mcpgen: warning: %s carries debug information (%s); a release binary, or one built with "+
			"-ldflags=\"-s -w\", is about 30%% smaller\n", b.Binary, fileSize(b.Binary))
	}
	var buf bytes.Buffer
	warnings, err := b.Write(&buf)
	for _, w := range warnings {
		fmt.Fprintf(std.err, "mcpgen: warning: %s\n", w)
	}
	if err == nil {
		err = os.WriteFile(f.out, buf.Bytes(), 0o644)
	}
	if err != nil {
		fmt.Fprintf(std.err, "mcpgen: %v\n", err)
		return exitError
	}
	fmt.Fprintf(std.err, "wrote %s: %s for %s, %d tools, %d prompts, %d settings\n", f.out, b.Name, b.Platform,
		len(b.Tools), len(b.Prompts), len(b.Env))
	return exitOK
}

// packBinary returns the mcpgen executable for platform: when no platform
// is given, this one if it is stripped (a release binary), else one built
// stripped with Go from the module in the current directory, for the
// given platform or this one. A build that fails for this platform leaves
// this executable, with a warning.
func packBinary(ctx context.Context, platform, dir string, std stdio) (string, error) {
	if platform == "" {
		exe, err := executable()
		if err != nil || !pack.HasDebugInfo(exe) {
			return exe, err
		}
		built, err := buildBinary(ctx, goruntime.GOOS, goruntime.GOARCH, dir)
		if err != nil {
			fmt.Fprintf(std.err, "mcpgen: warning: bundling this mcpgen as it is, with its debug information (%s): %v\n",
				fileSize(exe), err)
			return exe, nil
		}
		fmt.Fprintf(std.err, "bundling mcpgen built without debug information: %s instead of %s\n", fileSize(built), fileSize(exe))
		return built, nil
	}
	goos, goarch, ok := strings.Cut(platform, "/")
	if !ok || goos == "" || goarch == "" {
		return "", fmt.Errorf("--platform %q: want OS/ARCH, e.g. darwin/arm64", platform)
	}
	return buildBinary(ctx, goos, goarch, dir)
}

// executable is os.Executable; tests name an executable with debug
// information (go test's own has none).
var executable = os.Executable

// buildBinary builds mcpgen stripped, as the release does, for goos/goarch
// into dir.
func buildBinary(ctx context.Context, goos, goarch, dir string) (string, error) {
	out := filepath.Join(dir, "mcpgen")
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags=-s -w -buildid=", "-o", out, "github.com/mcpgen/mcpgen/cmd/mcpgen")
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH="+goarch, "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building mcpgen for %s/%s needs Go and mcpgen's source (run in a clone), or give --binary: %v\n%s",
			goos, goarch, err, bytes.TrimSpace(msg))
	}
	return out, nil
}

// fileSize says how large the file at path is, in MB.
func fileSize(path string) string {
	info, err := os.Stat(path)
	if err != nil {
		return "size unknown"
	}
	return fmt.Sprintf("%.1f MB", float64(info.Size())/1e6)
}

func packServerJSON(f packFlags, files []string, info *configInfo, std stdio) int {
	s := &pack.Server{Name: f.registryName, Title: info.server.Title, Version: cmp.Or(f.version, info.server.Version),
		Description: cmp.Or(f.description, info.server.Instructions), MCPBURL: f.mcpbURL, MCPBFile: f.mcpbFile,
		Image: f.image, Remote: cmp.Or(f.remote, info.remote), Env: info.env}
	for _, c := range files {
		s.ConfigNames = append(s.ConfigNames, filepath.Base(c))
	}
	var buf bytes.Buffer
	err := s.WriteJSON(&buf)
	switch {
	case err != nil:
	case f.out == "":
		_, err = std.out.Write(buf.Bytes())
	default:
		err = os.WriteFile(f.out, buf.Bytes(), 0o644)
	}
	if err != nil {
		fmt.Fprintf(std.err, "mcpgen: %v\n", err)
		return exitError
	}
	return exitOK
}
