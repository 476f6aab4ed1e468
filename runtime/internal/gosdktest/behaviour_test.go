package gosdktest

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// A probe is one line of testdata/probe.go.txt's output: what the SDK does
// where the patch changes it. With the patch the SDK answers fork; upstream
// that answers the same (or, for a byte count, allocates less than more
// times the fork's) has shipped what the patch does: drop its hunks.
type probe struct {
	name  string
	fork  string  // the answer with the patch
	more  float64 // for a byte count: upstream allocates at least more × the fork's
	hunks string
}

var probes = []probe{
	{name: "handleOnReader", fork: "yes", hunks: "internal/jsonrpc2/conn.go: the handler queue on the reading goroutine (releaser, handle, handOnQueue, readOnAfter, acceptRequest's inline)"},
	{name: "handleOnPOST", fork: "yes", hunks: "Deliver: internal/jsonrpc2/conn.go Deliver, retire, handleDelivered; mcp/transport.go deliverer; mcp/streamable.go setDeliver, publish"},
	{name: "postStartsNoGoroutine", fork: "yes", hunks: "a stateless session reads nothing: internal/jsonrpc2/conn.go a nil Reader; mcp/transport.go deliversOnly; mcp/streamable.go deliversOnly, no incoming channel"},
	{name: "badParams", fork: "-32602", hunks: "mcp/shared.go: params that do not decode are -32602"},
	{name: "secondInitialize", fork: "-32600", hunks: "mcp/server.go: a duplicate initialize is -32600"},
	{name: "unknownLogLevel", fork: "-32602", hunks: "mcp/server.go: an unknown logging level is -32602"},
	{name: "tasksNeedMcpName", fork: "yes", hunks: "mcp/streamable_headers.go: tasks/* methods name their task in Mcp-Name"},
	{name: "middlewareResultType", fork: "complete", hunks: "mcp/protocol.go: setCompleteResultType, setUnsetResultType"},
	{name: "textResultBytes", more: 1.25, hunks: "mcp/protocol.go: CallToolResult.marshalText"},
	{name: "postBytes", more: 2, hunks: "mcp/streamable.go: readBody, readPOST, servePOSTMessages; mcp/transport.go: readBatch's '['; mcp/shared.go: _meta looked for before decoding"},
}

// probeAnswers runs the probe program against the SDK (see sdkModuleDir)
// and returns its answers by name.
func probeAnswers(t *testing.T, sdk string) map[string]string {
	t.Helper()
	prog, err := os.ReadFile("testdata/probe.go.txt")
	if err != nil {
		t.Fatal(err)
	}
	out, _ := runAgainst(t, sdk, string(prog))
	answers := map[string]string{}
	for line := range strings.Lines(out) {
		name, answer, _ := strings.Cut(strings.TrimSpace(line), " ")
		answers[name] = answer
	}
	return answers
}

// TestUpstreamStillBehavesUnpatched fails when upstream does what a part
// of the patch makes the SDK do: then drop that part's hunks (the failure
// names them) and keep upstream's. Each probe must tell upstream with the
// patch apart from upstream without.
func TestUpstreamStillBehavesUnpatched(t *testing.T) {
	fork := probeAnswers(t, patchedUpstream(t))
	up := probeAnswers(t, "")
	for _, p := range probes {
		t.Run(p.name, func(t *testing.T) {
			f, u := fork[p.name], up[p.name]
			t.Logf("with the patch %s, upstream %s", f, u)
			if p.more == 0 {
				if f != p.fork {
					t.Fatalf("with the patch the probe answers %q, want %q: fix the probe", f, p.fork)
				}
				if u == p.fork {
					t.Errorf("upstream %s answers %q as the patch does: drop the patch's %s", sdkModule, u, p.hunks)
				}
				return
			}
			fb, err1 := strconv.ParseFloat(f, 64)
			ub, err2 := strconv.ParseFloat(u, 64)
			if err1 != nil || err2 != nil {
				t.Fatalf("want byte counts, got %q with the patch and %q upstream", f, u)
			}
			if ub < p.more*fb {
				t.Errorf("upstream %s allocates %.0f bytes, less than %.2f × the patch's %.0f: drop the patch's %s", sdkModule, ub, p.more, fb, p.hunks)
			}
		})
	}
	if len(fork) != len(probes) {
		t.Errorf("the probe program answers %d probes, the table has %d", len(fork), len(probes))
	}
}
