package main

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestREADMELiveReload runs the commands of the README's "Live reload and
// the dev page" section as written (on a free port instead of 8080):
// `mcpgen dev` prints the page's URL, `mcpgen serve --watch` serves.
func TestREADMELiveReload(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	sec := string(readme)
	start := strings.Index(sec, "## Live reload and the dev page")
	if start < 0 {
		t.Fatal("the README has no live reload section")
	}
	sec = sec[start:]
	sec = sec[:strings.Index(sec[3:], "\n## ")+3]
	cmds := regexp.MustCompile("(?m)^mcpgen (dev|serve) ([^\n#]*)$").FindAllStringSubmatch(sec, -1)
	if len(cmds) != 2 {
		t.Fatalf("the section shows %d mcpgen commands, want 2", len(cmds))
	}
	for _, c := range cmds {
		args := append([]string{c[1]}, strings.Fields(strings.ReplaceAll(c[2], "127.0.0.1:8080", "127.0.0.1:0"))...)
		for i, a := range args {
			if strings.HasPrefix(a, "examples/") {
				args[i] = "../../" + a
			}
		}
		want := map[string]string{"dev": "open http://127.0.0.1:", "serve": "serving Streamable HTTP"}[c[1]]
		t.Run(c[1], func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			stderr := &syncBuffer{}
			done := make(chan int, 1)
			go func() { done <- run(ctx, args, strings.NewReader(""), &bytes.Buffer{}, stderr) }()
			deadline := time.Now().Add(30 * time.Second)
			for !strings.Contains(stderr.String(), want) {
				if time.Now().After(deadline) {
					t.Fatalf("mcpgen %s printed no %q:\n%s", strings.Join(args, " "), want, stderr)
				}
				time.Sleep(20 * time.Millisecond)
			}
			cancel()
			select {
			case st := <-done:
				if st != exitOK {
					t.Errorf("exit %d:\n%s", st, stderr)
				}
			case <-time.After(20 * time.Second):
				t.Error("did not stop")
			}
		})
	}
}
