package runtime

import (
	"context"
	"errors"
	"testing"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

const resourceStepsConfig = `version: 1
resources:
  - uri: notes://today
    name: today
    steps:
      - elicit:
          message: Whose notes?
          schema: {type: object, properties: {name: {type: string}}, required: [name]}
          as: who
    text: "Notes of {{ .steps.who.content.name }}"
resource_templates:
  - uri_template: notes://day/{day}
    name: day
    steps: [{roots: {as: where}}]
    handler: {kind: echo, result: "${{ args.day + ' in ' + steps.where.paths[0] }}"}
`

// TestResourceSteps: a resource's steps ask a 2025-11-25 client by
// requests and a 2026-07-28 client by input requests of the read; the
// contents use the answers (in a text and in a handler's expressions), and
// are never cached.
func TestResourceSteps(t *testing.T) {
	srv := mustCompile(t, resourceStepsConfig, nil)
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(version, func(t *testing.T) {
			asked := 0
			c := &mcp.ClientOptions{
				ElicitationHandler: func(context.Context, *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
					asked++
					return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "Ada"}}, nil
				},
			}
			cs := session(t, srv, version, c, nil, &mcp.Root{URI: "file:///srv/notes", Name: "notes"})
			for uri, want := range map[string]string{"notes://today": "Notes of Ada", "notes://day/monday": "monday in /srv/notes"} {
				res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
				if err != nil {
					t.Fatalf("%s: %v", uri, err)
				}
				if got := res.Contents[0].Text; got != want {
					t.Errorf("%s: %q, want %q", uri, got, want)
				}
				if version >= modernVersion && (res.TTLMs != 0 || res.CacheScope != "private") {
					t.Errorf("%s: caching %+v; want ttl 0, private", uri, res.Cacheable)
				}
			}
			if asked != 1 {
				t.Errorf("the user was asked %d times, want 1", asked)
			}
		})
	}
}

// TestResourceStepsMissingCapability: at 2026-07-28 a read whose steps
// need a capability the client did not declare gets -32021.
func TestResourceStepsMissingCapability(t *testing.T) {
	cs := session(t, mustCompile(t, resourceStepsConfig, nil), "2026-07-28", nil, nil)
	_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "notes://today"})
	var rpc *jsonrpc.Error
	if !errors.As(err, &rpc) || rpc.Code != mcp.CodeMissingRequiredClientCapabilities || string(rpc.Data) != `{"requiredCapabilities":{"elicitation":{}}}` {
		t.Errorf("error %v (data %s); want -32021 naming elicitation", err, rpcData(rpc))
	}
}

// TestResourceStepsOnlyAsk: a resource's steps can only ask the client.
func TestResourceStepsOnlyAsk(t *testing.T) {
	_, ds := compileText(t, "version: 1\nresources:\n  - uri: a://b\n    name: b\n    steps: [{log: {message: hi}}]\n    text: t\n", nil)
	wantDiag(t, ds, "resources[0].steps[0]", "a resource's steps can only ask the client: elicit, sample or roots")
}
