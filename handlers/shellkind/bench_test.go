package shellkind_test

import (
	"context"
	"os/exec"
	"testing"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
)

// The cost of a tool call over running the program directly: compare
// BenchmarkCall/X with BenchmarkExec/X (go test -bench . -run '^$').

func BenchmarkCall(b *testing.B) {
	for _, bb := range []struct{ name, handler, args string }{
		{"true", "command: ['true']", `{"a": ""}`},
		{"echo", "command: [echo, '${{ args.a }}']", `{"a": "hello"}`},
	} {
		b.Run(bb.name, func(b *testing.B) {
			srv := build(b, tool([]string{"a"}, bb.handler))
			ctx := context.Background()
			for b.Loop() {
				res, err := srv.CallTool(ctx, "t", []byte(bb.args), nil)
				if err != nil || res.IsError {
					b.Fatalf("call failed: %v %v", err, res)
				}
			}
		})
	}
}

func BenchmarkExec(b *testing.B) {
	for _, bb := range []struct {
		name string
		argv []string
	}{
		{"true", []string{"true"}},
		{"echo", []string{"echo", "hello"}},
	} {
		b.Run(bb.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := exec.Command(bb.argv[0], bb.argv[1:]...).Output(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRatio alternates a tool call running `true` with exec.Command
// running it, so that both see the same machine load, and reports their
// mean times and ratio.
func BenchmarkRatio(b *testing.B) {
	srv := build(b, tool(nil, "command: ['true']"))
	ctx := context.Background()
	var call, direct time.Duration
	for b.Loop() {
		start := time.Now()
		if res, err := srv.CallTool(ctx, "t", []byte(`{}`), nil); err != nil || res.IsError {
			b.Fatalf("call failed: %v %v", err, res)
		}
		mid := time.Now()
		if err := exec.Command("true").Run(); err != nil {
			b.Fatal(err)
		}
		call, direct = call+mid.Sub(start), direct+time.Since(mid)
	}
	b.ReportMetric(float64(call.Nanoseconds())/float64(b.N), "call-ns/op")
	b.ReportMetric(float64(direct.Nanoseconds())/float64(b.N), "exec-ns/op")
	b.ReportMetric(float64(call)/float64(direct), "call/exec")
}

// BenchmarkProgress is the cost of reading progress from 100000 lines of
// stdout: compare lines with none.
func BenchmarkProgress(b *testing.B) {
	for _, bb := range []struct{ name, handler string }{
		{"none", "command: [seq, '100000']"},
		{"lines", "command: [seq, '100000']\nprogress: {lines: true}"},
		{"pattern", "command: [seq, '100000']\nprogress: {pattern: '(?P<done>\\d+)', from: stdout}"},
	} {
		b.Run(bb.name, func(b *testing.B) {
			srv := build(b, tool(nil, bb.handler))
			ctx := context.Background()
			for b.Loop() {
				if res, err := srv.CallTool(ctx, "t", []byte(`{}`), handlers.Nop{}); err != nil || res.IsError {
					b.Fatalf("call failed: %v %v", err, res)
				}
			}
		})
	}
}
