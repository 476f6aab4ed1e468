package shellkind_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers/handlertest"
)

// hostile are argument values a shell would act on; every way of passing an
// argument must hand them over as inert text.
var hostile = []struct{ name, value string }{
	{"semicolon", "; rm -rf / ; touch pwned"},
	{"command substitution", "$(touch pwned)"},
	{"backticks", "`touch pwned`"},
	{"and", "x && touch pwned"},
	{"or and pipe", "x || touch pwned | cat"},
	{"newline", "x\ntouch pwned\n"},
	{"redirection", "> pwned"},
	{"variable", "$HOME ${PATH} ${{ args.v }}"},
	{"glob", "* ?"},
	{"quotes", `'"\' "`},
	{"flag after --", "--output=pwned"},
}

// passing lists the ways of handing an argument to a command.
var passing = []struct{ name, handler string }{
	{"argv", "command: [./args.sh, --, '${{ args.v }}']"},
	{"script param interpolated", "script: printf '<%s>\\n' -- \"$1\"\nparams: ['v=${{ args.v }}']"},
	{"script param", "script: printf '<%s>\\n' -- \"$1\"\nparams: ['${{ args.v }}']\nallow_flags: true"},
	{"script env", "script: printf '<%s>\\n' -- \"$V\"\nenv: {V: '${{ args.v }}'}"},
}

func TestHostileArgumentsAreInert(t *testing.T) {
	t.Parallel()
	for _, p := range passing {
		for _, h := range hostile {
			t.Run(p.name+"/"+h.name, func(t *testing.T) {
				t.Parallel()
				srv := build(t, tool([]string{"v"}, p.handler))
				args, _ := json.Marshal(map[string]string{"v": h.value})
				res := handlertest.Call(t, context.Background(), srv, "t", string(args))
				want := "<-->\n<" + h.value + ">\n"
				if p.name == "script param interpolated" {
					want = "<-->\n<v=" + h.value + ">\n"
				}
				if diff := cmp.Diff(want, handlertest.Text(res)); diff != "" || res.IsError {
					t.Errorf("isError=%v, output (-want +got):\n%s", res.IsError, diff)
				}
			})
		}
	}
}

func TestHostileArgumentsCreateNothing(t *testing.T) {
	t.Parallel()
	for _, p := range passing {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			config := tool([]string{"v"}, p.handler+"\ndir: "+dir)
			srv := build(t, config)
			for _, h := range hostile {
				args, _ := json.Marshal(map[string]string{"v": h.value})
				handlertest.Call(t, context.Background(), srv, "t", string(args))
			}
			entries, err := os.ReadDir(dir)
			if err != nil || len(entries) > 0 {
				t.Errorf("the working directory holds %v (%v), want nothing", entries, err)
			}
		})
	}
}

func TestRefusedArguments(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, handler, value string
		want                 string // "" for accepted
	}{
		{"NUL in argv", "command: [./args.sh, --, '${{ args.v }}']", "a\x00b", "command[2]: the value holds a NUL byte"},
		{"NUL in a param", "script: 'true'\nparams: ['${{ args.v }}']", "a\x00b", "params[0]: the value holds a NUL byte"},
		{"NUL in env", "command: ['true']\nenv: {V: '${{ args.v }}'}", "\x00", "env.V: the value holds a NUL byte"},
		{"long flag in a param", "script: 'true'\nparams: [x, '${{ args.v }}']", "--exec=sh", `params[1]: the value "--exec=sh" starts with '-'`},
		{"flag in a param", "script: 'true'\nparams: ['${{ args.v }}']", "-x", `params[0]: the value "-x" starts with '-'`},
		{"flag after --", "command: [./args.sh, --, '${{ args.v }}']", "-rf", ""},
		{"flag with allow_flags", "script: 'true'\nparams: ['${{ args.v }}']\nallow_flags: true", "-rf", ""},
		{"flag written in the expression", "command: [./args.sh, \"${{ args.v == 'n' ? ['-n'] : [] }}\"]", "n", ""},
		{"flag written in the expression, other value", "script: 'true'\nparams: [\"${{ args.v == 'n' ? ['-n'] : args.v }}\"]", "-rf", `params[0]: the value "-rf" starts with '-'`},
		{"flag built in the expression", "script: 'true'\nparams: [\"${{ '-' + args.v }}\"]", "rf", `params[0]: the value "-rf" starts with '-'`},
		{"leading text", "script: 'true'\nparams: ['x${{ args.v }}']", "-rf", ""},
		{"dash in the middle", "script: 'true'\nparams: ['${{ args.v }}']", "a-b", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := build(t, tool([]string{"v"}, tt.handler))
			args, _ := json.Marshal(map[string]string{"v": tt.value})
			res := handlertest.Call(t, context.Background(), srv, "t", string(args))
			text := handlertest.Text(res)
			if tt.want == "" {
				if res.IsError {
					t.Errorf("refused: %s", text)
				}
				return
			}
			if !res.IsError || !strings.Contains(text, tt.want) {
				t.Errorf("want an error containing %q, got isError=%v %q", tt.want, res.IsError, text)
			}
		})
	}
}
