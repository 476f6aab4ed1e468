package runtime

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/load"
)

// markConfig reports a problem at the first "!" of its text, through
// DiagAt, and still returns a handler, as a careless kind might.
type markConfig struct {
	Text string `yaml:"text"`
}

func (c *markConfig) Build(env handlers.BuildEnv) handlers.Handler {
	if i := strings.IndexByte(c.Text, '!'); i >= 0 {
		env.DiagAt("text", i, "no shouting")
	}
	return markHandler{}
}

type markHandler struct{}

func (markHandler) Call(context.Context, *handlers.Call) (*handlers.Result, error) {
	return handlers.TextResult("ok"), nil
}

// TestDiagAtAndFailed checks that DiagAt points at the character inside the
// field, in plain text and in a literal block, and that a handler whose
// build reported an error is not served.
func TestDiagAtAndFailed(t *testing.T) {
	t.Parallel()
	reg := handlers.NewRegistry(handlers.Kind{Name: "mark", Doc: "Marks.",
		NewConfig: func() handlers.Config { return &markConfig{} }})
	text := "version: 1\ntools:\n  - name: a\n    description: d\n    handler: {kind: mark, text: 'ab!'}\n" +
		"  - name: b\n    description: d\n    handler:\n      kind: mark\n      text: |\n        line one\n        two!\n"
	f, ds := load.Bytes("mcpgen.yaml", []byte(text), load.Options{})
	srv, bds := Build([]*load.File{f}, BuildOptions{Registry: reg})
	ds = append(ds, bds...).Sort()
	if srv != nil {
		t.Error("a server was built from handlers that reported errors")
	}
	var got []string
	for _, d := range ds {
		got = append(got, d.String())
	}
	want := []string{"mcpgen.yaml:5:36: tools[0].handler.text: no shouting",
		"mcpgen.yaml:12:12: tools[1].handler.text: no shouting"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}
