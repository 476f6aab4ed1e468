package main

import (
	"context"
	"fmt"
	"os"
	"regexp"

	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/runtime/configtest"
	"github.com/spf13/cobra"
)

// testFlags are the flags of `mcpgen test`.
type testFlags struct {
	pattern   string
	record    bool
	format    string
	junitFile string
}

// testCommand declares `mcpgen test`.
func testCommand() *cobra.Command {
	var f testFlags
	cmd := newCommand("test [flags] [FILE|DIR|DIR/...]...", "run the behaviour tests of configs (NAME.test.yaml, or tests: in a config)",
		func(ctx context.Context, paths []string, std stdio) int { return runTest(ctx, paths, std, &f) })
	fs := cmd.Flags()
	fs.StringVar(&f.pattern, "run", "", "run only the tests whose name matches this regular expression")
	fs.BoolVar(&f.record, "record", false, "call the real HTTP APIs and store the exchanges, secrets scrubbed, in NAME.recorded.yaml beside each test file")
	fs.StringVar(&f.format, "format", "text", "output format: text, github (workflow annotations) or junit (JUnit XML)")
	completeWords(cmd, "format", "text", "github", "junit")
	fs.StringVar(&f.junitFile, "junit", "", "also write a JUnit XML report to this file")
	return cmd
}

func runTest(ctx context.Context, paths []string, std stdio, f *testFlags) int {
	var re *regexp.Regexp
	if f.pattern != "" {
		var err error
		if re, err = regexp.Compile(f.pattern); err != nil {
			return usageError(std.err, "test", fmt.Sprintf("--run: %v", err))
		}
	}
	if f.format != "text" && f.format != "github" && f.format != "junit" {
		return usageError(std.err, "test", fmt.Sprintf("unknown format %q: use text, github or junit", f.format))
	}
	files, err := configtest.Find(paths)
	if err != nil {
		return usageError(std.err, "test", err.Error())
	}
	all := runTestFiles(ctx, files, configtest.Options{Registry: builtin.Registry, Run: re, Record: f.record}, std)
	if err := writeTestReport(all, f.format, f.junitFile, std); err != nil {
		fmt.Fprintf(std.err, "mcpgen: %v\n", err)
		return exitError
	}
	_, failed, _ := configtest.Counts(all)
	for _, s := range all {
		if s.Problems.Errors() > 0 {
			failed++
		}
	}
	if failed > 0 {
		return exitError
	}
	return exitOK
}

// runTestFiles loads and runs each test file; a file with errors runs no
// case.
func runTestFiles(ctx context.Context, files []string, opts configtest.Options, std stdio) []*configtest.SuiteResult {
	var all []*configtest.SuiteResult
	for _, f := range files {
		sr := &configtest.SuiteResult{Path: f}
		all = append(all, sr)
		s, ds := configtest.Load(f)
		sr.Problems = ds
		if s == nil || ds.Errors() > 0 {
			continue
		}
		var err error
		if sr.Results, err = configtest.Run(ctx, s, opts); err != nil {
			fmt.Fprintf(std.err, "mcpgen: writing %s: %v\n", s.RecordPath(), err)
		}
	}
	return all
}

func writeTestReport(all []*configtest.SuiteResult, format, junitFile string, std stdio) error {
	switch format {
	case "github":
		configtest.WriteGitHub(std.out, all)
		configtest.WriteText(std.err, all)
	case "junit":
		if err := configtest.WriteJUnit(std.out, all); err != nil {
			return err
		}
	default:
		configtest.WriteText(std.out, all)
	}
	if junitFile == "" {
		return nil
	}
	f, err := os.Create(junitFile)
	if err != nil {
		return err
	}
	if err := configtest.WriteJUnit(f, all); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
