package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/spec"
	"github.com/spf13/cobra"
)

func specServer(name string) spec.Server { return spec.Server{Name: name} }

// initFlags are the flags of `mcpgen init`.
type initFlags struct {
	st  starter
	dsn string
	out string
}

// initCommand declares `mcpgen init`.
func initCommand() *cobra.Command {
	var f initFlags
	cmd := newCommand("init [--shell] [--http BASE_URL] [--sql DSN] [--name NAME] [-o FILE]", "write a starter config and its tests, and print client snippets",
		func(ctx context.Context, pos []string, std stdio) int { return runInit(ctx, pos, std, &f) })
	fs := cmd.Flags()
	fs.BoolVar(&f.st.shell, "shell", false, "a tool that runs a local command")
	fs.StringVar(&f.st.http, "http", "", "a tool that calls the HTTP API at this base URL")
	fs.StringVar(&f.dsn, "sql", "", "a tool that queries this database: a SQLite file, postgres://..., or user:password@tcp(host)/db for MySQL")
	fs.StringVar(&f.st.name, "name", "", "the server's name (default: the directory's)")
	fs.StringVarP(&f.out, "output", "o", "mcpgen.yaml", "the config to write; its tests go beside it (NAME.test.yaml)")
	return cmd
}

func runInit(ctx context.Context, pos []string, std stdio, f *initFlags) int {
	switch {
	case len(pos) > 0:
		return usageError(std.err, "init", fmt.Sprintf("unexpected argument %q; give the file with -o", pos[0]))
	}
	if !f.st.shell && f.st.http == "" && f.dsn == "" {
		f.st.shell, f.st.http, f.dsn = ask(std)
	}
	if f.dsn != "" {
		f.st.sql = parseDSN(f.dsn)
	}
	if err := checkBaseURL(f.st.http); err != nil {
		return usageError(std.err, "init", err.Error())
	}
	if !f.st.shell && f.st.http == "" && f.st.sql == nil {
		f.st.shell = true // something that works everywhere
	}
	if f.st.name == "" {
		f.st.name = serverName(f.out)
	}
	testFile := filepath.Join(filepath.Dir(f.out), testFileName(f.out))
	if err := writeNew([2]string{f.out, f.st.config(f.out)}, [2]string{testFile, f.st.tests(f.out)}); err != nil {
		fmt.Fprintf(std.err, "mcpgen: %v\n", err)
		return exitError
	}
	return initDone(std, f.st, f.out, testFile)
}

// ask asks what the server is for, one question a line; at the end of the
// input the remaining answers are the defaults.
func ask(std stdio) (shell bool, base, dsn string) {
	r := bufio.NewReader(std.in)
	line := func(q string) string {
		fmt.Fprint(std.err, q)
		s, _ := r.ReadString('\n')
		return strings.TrimSpace(s)
	}
	a := strings.ToLower(line("Tools that run local commands? [Y/n] "))
	shell = a == "" || strings.HasPrefix(a, "y")
	base = line("Base URL of an HTTP API (empty for none): ")
	dsn = line("A database: a SQLite file, postgres://..., or user:password@tcp(host)/db (empty for none): ")
	return shell, base, dsn
}

func checkBaseURL(s string) error {
	if s == "" {
		return nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("--http %q: want a base URL such as https://api.example.com/v1", s)
	}
	return nil
}

// writeNew writes the files, none of which may exist: it never overwrites
// a file, and writes nothing when one is there. Files are [path, text]
// pairs, checked and written in order, so the first one in the way is the
// one named.
func writeNew(files ...[2]string) error {
	for _, f := range files {
		if _, err := os.Lstat(f[0]); err == nil {
			return fmt.Errorf("%s exists; init never overwrites a file: give another name with -o", f[0])
		}
	}
	var written []string
	for _, pt := range files {
		p, text := pt[0], pt[1]
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_, err = io.WriteString(f, text)
			err = errors.Join(err, f.Close())
		}
		if err != nil {
			for _, w := range written {
				os.Remove(w)
			}
			return err
		}
		written = append(written, p)
	}
	return nil
}

// initDone says what was written and how to use it, with the snippets of
// every client.
func initDone(std stdio, st starter, file, testFile string) int {
	fmt.Fprintf(std.out, "Wrote %s and its tests, %s. Next:\n\n", file, testFile)
	fmt.Fprintf(std.out, "  mcpgen validate %s\n  mcpgen test %s\n  mcpgen call %s %s\n\n", file, file, file, firstTool(st))
	if st.sql != nil && st.sql.secret {
		fmt.Fprintf(std.out, "The DSN holds a password, so the config reads it from DATABASE_URL: set it where the server runs.\n\n")
	}
	info := &configInfo{server: specServer(st.name)}
	data, _ := os.ReadFile(file)
	vars, _ := load.EnvVars(data)
	info.env = vars
	l, err := launch([]string{file}, info, "")
	if err != nil {
		fmt.Fprintf(std.err, "mcpgen: %v\n", err)
		return exitError
	}
	printSnippets(std.out, l, "")
	return exitOK
}

func firstTool(st starter) string {
	switch {
	case st.shell:
		return "list_files"
	case st.http != "":
		return "api_status"
	}
	return "list_tables"
}
