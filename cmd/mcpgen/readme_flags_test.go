package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// docCommand is one mcpgen command line a page shows.
type docCommand struct {
	page string
	args []string // after "mcpgen": the command, then its words
}

var (
	fencedBlock = regexp.MustCompile("(?s)```[a-z]*\n(.*?)```")
	codeSpan    = regexp.MustCompile("`([^`\n]+)`")
	argsArray   = regexp.MustCompile(`"args":\s*\[([^\]]*)\]`)
	quotedWord  = regexp.MustCompile(`"([^"]*)"`)
)

// docCommands finds the mcpgen command lines of a Markdown page: in code
// blocks and code spans, and the "args" arrays of client configurations
// (which start at the command).
func docCommands(page, text string, commands []string) []docCommand {
	var found []docCommand
	add := func(args []string) {
		if len(args) > 0 && slices.Contains(commands, args[0]) {
			found = append(found, docCommand{page: page, args: args})
		}
	}
	var code []string
	for _, m := range fencedBlock.FindAllStringSubmatch(text, -1) {
		code = append(code, strings.ReplaceAll(m[1], "\\\n", " "))
	}
	for _, m := range codeSpan.FindAllStringSubmatch(fencedBlock.ReplaceAllString(text, ""), -1) {
		code = append(code, strings.ReplaceAll(m[1], `\|`, " ")) // a table's \| separates alternatives
	}
	for _, c := range code {
		for _, line := range strings.Split(c, "\n") {
			for _, part := range strings.Split(line, "mcpgen ")[1:] {
				add(strings.Fields(commandPart(part)))
			}
		}
		for _, m := range argsArray.FindAllStringSubmatch(c, -1) {
			var args []string
			for _, w := range quotedWord.FindAllStringSubmatch(m[1], -1) {
				args = append(args, w[1])
			}
			add(args)
		}
	}
	return found
}

// commandPart cuts a shell line at the end of its first command: a
// comment, a pipe outside brackets, a redirection, && or ;.
func commandPart(s string) string {
	depth := 0
	for i, r := range s {
		switch r {
		case '[', '(':
			depth++
		case ']', ')':
			depth--
		case '|':
			if depth <= 0 {
				return s[:i]
			}
		case '#', '>', ';', '&', '`':
			return s[:i]
		}
	}
	return s
}

// docFlags are the flags a command line uses, as written.
func docFlags(args []string) []string {
	var flags []string
	for _, w := range args {
		w = strings.Trim(w, "[]()'\"")
		if strings.HasPrefix(w, "-") && len(w) > 1 && w != "--" && !strings.HasPrefix(w, "-{") {
			name, _, _ := strings.Cut(w, "=")
			flags = append(flags, name)
		}
	}
	return flags
}

// TestDocFlagsInHelp runs `mcpgen COMMAND --help` for every command line
// the README and the docs show, and checks that each flag they use is one
// the command has, written as it takes it: --name, or -x for a
// one-letter shorthand.
func TestDocFlagsInHelp(t *testing.T) {
	var commands []string
	for _, c := range rootCommand(stdio{}).Commands() {
		commands = append(commands, c.Name())
	}
	pages, _ := filepath.Glob("../../docs/*.md")
	pages = append([]string{"../../README.md"}, pages...)
	helps := map[string]string{}
	n := 0
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, dc := range docCommands(filepath.Base(page), string(data), commands) {
			path := dc.args[:1]
			if dc.args[0] == "import" && len(dc.args) > 1 && !strings.HasPrefix(dc.args[1], "-") {
				path = dc.args[:2]
			}
			key := strings.Join(path, " ")
			help, ok := helps[key]
			if !ok {
				out, code := runOut(t, append(slices.Clone(path), "--help")...)
				if code != exitOK {
					t.Fatalf("mcpgen %s --help: exit %d", key, code)
				}
				help, helps[key] = out, out
			}
			for _, f := range docFlags(dc.args[len(path):]) {
				n++
				if !flagInHelp(f, help) {
					t.Errorf("%s: mcpgen %s: %s is not a flag of `mcpgen %s --help`", dc.page, strings.Join(dc.args, " "), f, key)
				}
			}
		}
	}
	if n < 50 {
		t.Fatalf("found %d flags in the docs' command lines; the extraction missed them", n)
	}
}

// flagInHelp says whether help lists f: a long flag as "--name", a
// shorthand as "-x, --name".
func flagInHelp(f, help string) bool {
	if strings.HasPrefix(f, "--") {
		return regexp.MustCompile(`(?m)^  (-\w, )?\s*` + regexp.QuoteMeta(f) + `( |$)`).MatchString(help)
	}
	return len(f) == 2 && regexp.MustCompile(`(?m)^  `+regexp.QuoteMeta(f)+`, --`).MatchString(help)
}

// TestDocFlagsInHelpCatches checks the extraction against lines written
// to fail: a single-dash long flag, a flag a command lacks, a flag of
// another command.
func TestDocFlagsInHelpCatches(t *testing.T) {
	help, _ := runOut(t, "serve", "--help")
	page := "```sh\nmcpgen serve -http :8080 x.yaml | jq\n```\n" +
		"```json\n" + `{"command": "mcpgen", "args": ["serve", "--watch", "--stdio", "x.yaml"]}` + "\n```\n" +
		"Run `mcpgen serve --stdio \\| --htttp ADDR` or `mcpgen validate --skip-env`.\n"
	var got []string
	for _, dc := range docCommands("x.md", page, []string{"serve", "validate"}) {
		for _, f := range docFlags(dc.args[1:]) {
			got = append(got, dc.args[0]+" "+f+" "+map[bool]string{true: "ok", false: "missing"}[flagInHelp(f, help)])
		}
	}
	want := []string{"serve -http missing", "serve --watch ok", "serve --stdio ok",
		"serve --stdio ok", "serve --htttp missing", "validate --skip-env missing"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
