package configtest

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/load"
)

// SuiteResult is the outcome of one test file.
type SuiteResult struct {
	// Path is the test file.
	Path string
	// Problems are errors in the test file or its recordings; its cases
	// did not run when there are any.
	Problems load.Diagnostics
	// Results are its cases'.
	Results []*Result
}

// Counts returns how many cases passed, failed and were skipped.
func Counts(all []*SuiteResult) (passed, failed, skipped int) {
	for _, s := range all {
		for _, r := range s.Results {
			switch {
			case r.Skipped:
				skipped++
			case len(r.Failures) > 0:
				failed++
			default:
				passed++
			}
		}
	}
	return passed, failed, skipped
}

// WriteText reports like `go test -v`: a line per case, the failures
// indented under it, file:line:col first. Times are left out, so that the
// report of a run is the same every time (JUnit has them).
func WriteText(w io.Writer, all []*SuiteResult) {
	for _, s := range all {
		for _, d := range s.Problems {
			fmt.Fprintln(w, d)
		}
		for _, r := range s.Results {
			switch {
			case r.Skipped && r.SkipReason != "":
				fmt.Fprintf(w, "--- SKIP: %s (%s)\n", r.Name, r.SkipReason)
			case r.Skipped:
			case len(r.Failures) > 0:
				fmt.Fprintf(w, "--- FAIL: %s (%s:%d:%d)\n", r.Name, r.Pos.File, r.Pos.Line, r.Pos.Col)
				for _, f := range r.Failures {
					fmt.Fprintf(w, "    %s\n", strings.ReplaceAll(f.String(), "\n", "\n    "))
				}
			default:
				fmt.Fprintf(w, "--- PASS: %s\n", r.Name)
			}
		}
	}
	passed, failed, skipped := Counts(all)
	status := "PASS"
	if failed > 0 || problems(all) > 0 {
		status = "FAIL"
	}
	fmt.Fprintf(w, "%s: %d passed, %d failed", status, passed, failed)
	if skipped > 0 {
		fmt.Fprintf(w, ", %d skipped", skipped)
	}
	if n := problems(all); n > 0 {
		fmt.Fprintf(w, ", %d errors in test files", n)
	}
	fmt.Fprintln(w)
}

func problems(all []*SuiteResult) int {
	n := 0
	for _, s := range all {
		n += s.Problems.Errors()
	}
	return n
}

// WriteGitHub writes workflow commands: an error annotation at every
// failure and problem, which GitHub shows on the lines of the pull request.
func WriteGitHub(w io.Writer, all []*SuiteResult) {
	for _, s := range all {
		for _, d := range s.Problems {
			annotate(w, d, "")
		}
		for _, r := range s.Results {
			for _, f := range r.Failures {
				annotate(w, f, r.Name)
			}
		}
	}
}

func annotate(w io.Writer, d load.Diagnostic, test string) {
	title := ""
	if test != "" {
		title = "test failed: " + test
	}
	fmt.Fprintln(w, d.Annotation(title))
}

// junit is the JUnit XML report that CI systems read.
type junit struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Time      string        `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Error     *junitMessage `xml:"error,omitempty"`
	Skipped   *struct{}     `xml:"skipped,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes a JUnit XML report: a testsuite per test file, a
// testcase per case; errors in a test file are an error case of its own.
func WriteJUnit(w io.Writer, all []*SuiteResult) error {
	var doc junit
	for _, s := range all {
		js := junitSuite{Name: s.Path}
		elapsed := 0.0
		if len(s.Problems) > 0 {
			js.Errors++
			js.Cases = append(js.Cases, junitCase{Name: "load", Classname: s.Path, File: s.Path, Time: "0",
				Error: &junitMessage{Message: "errors in the test file", Text: s.Problems.Error()}})
		}
		for _, r := range s.Results {
			jc := junitCase{Name: r.Name, Classname: s.Path, File: r.Pos.File, Line: r.Pos.Line, Time: fmt.Sprintf("%.3f", r.Elapsed.Seconds())}
			elapsed += r.Elapsed.Seconds()
			switch {
			case r.Skipped:
				jc.Skipped = &struct{}{}
				js.Skipped++
			case len(r.Failures) > 0:
				jc.Failure = &junitMessage{Message: r.Failures[0].Message, Text: r.Failures.Error()}
				js.Failures++
			}
			js.Cases = append(js.Cases, jc)
		}
		js.Tests, js.Time = len(js.Cases), fmt.Sprintf("%.3f", elapsed)
		doc.Tests += js.Tests
		doc.Failures += js.Failures
		doc.Errors += js.Errors
		doc.Suites = append(doc.Suites, js)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
