package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStdioMalformedFrames sends every kind of broken frame: each gets the
// JSON-RPC error the spec gives it when it carries an id (a parse error
// always does: id null), is dropped when not, and the server answers the
// next request.
func TestStdioMalformedFrames(t *testing.T) {
	t.Parallel()
	c := startRaw(t, "../../examples/quickstart/mcpgen.yaml")
	c.initialize()
	for i, tt := range []struct {
		name, frame string
		id          string // "" when no reply is due
		code        int64
	}{
		{"not JSON", `hello`, "null", -32700},
		{"truncated JSON with an id", `{"jsonrpc":"2.0","id":5,"method":"ping"`, "5", -32700},
		{"batch", `[{"jsonrpc":"2.0","id":6,"method":"ping"},{"jsonrpc":"2.0","id":7,"method":"ping"}]`, "6", -32600},
		{"empty batch", `[]`, "", 0},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":8,"method":"ping"}`, "8", -32600},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, "", 0},
		{"fractional id", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, "1.5", -32600},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, "null", -32600},
		{"deep nesting", `{"jsonrpc":"2.0","id":9,"method":"ping","params":` + strings.Repeat("[", 200000) + strings.Repeat("]", 200000) + `}`, "9", -32700},
		{"scalar", `"x"`, "", 0},
		{"control characters", "\x00\x01\x1b[2J", "null", -32700},
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"\xff\xfe\"}", "10", -32601},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c.t = t
			c.send(tt.frame)
			if tt.id != "" {
				msgs := c.next()
				m := msgs[0]
				if string(m.ID) != tt.id || m.Error == nil || m.Error.Code != tt.code {
					t.Errorf("reply %+v; want id %s, code %d", m, tt.id, tt.code)
				}
			}
			c.alive(1000 + i)
		})
	}
}

// TestStdioHugeLine sends a 100 MiB line: it is refused without ending the
// process, and its id, at the start of the line, gets the error.
func TestStdioHugeLine(t *testing.T) {
	t.Parallel()
	c := startRaw(t, "../../examples/quickstart/mcpgen.yaml")
	c.initialize()
	go func() {
		_, _ = io.WriteString(c.in, `{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{"name":"greet","arguments":{"name":"`)
		chunk := strings.Repeat("a", 1<<20)
		for range 100 {
			if _, err := io.WriteString(c.in, chunk); err != nil {
				return
			}
		}
		_, _ = io.WriteString(c.in, "\"}}}\n")
	}()
	m := c.reply()
	if string(m.ID) != "77" || m.Error == nil || m.Error.Code != -32600 || !strings.Contains(m.Error.Message, "exceeds") {
		t.Errorf("reply to a 100 MiB line: %+v", m)
	}
	c.alive(2)
}

// TestStdioBeforeInitialize: a request before initialize gets an error with
// a JSON-RPC code, and the session can still initialize.
func TestStdioBeforeInitialize(t *testing.T) {
	t.Parallel()
	c := startRaw(t, "../../examples/quickstart/mcpgen.yaml")
	m := c.call(1, "tools/list", "{}")
	if m.Error == nil || m.Error.Code != -32600 {
		t.Errorf("tools/list before initialize: %+v", m)
	}
	c.initialize()
	if m := c.call(2, "tools/list", "{}"); m.Error != nil {
		t.Errorf("tools/list after initialize: %s", m.Error.Message)
	}
}

// hostile are strings a client may send that end up inside error replies.
var hostile = []string{"\x00", "a\x01b\x1f", "\x7f", "\xff\xfe", "\xed\xa0\x80", `"`, `\`, `\"`, "\u2028", "</script>", "\\u0000", "%q"}

// TestStdioClientStringsInErrors sends hostile strings where error
// replies echo them: every reply is valid JSON and the session goes on.
func TestStdioClientStringsInErrors(t *testing.T) {
	t.Parallel()
	c := startRaw(t, "../../examples/quickstart/mcpgen.yaml")
	c.initialize()
	id := 1
	for _, s := range hostile {
		q := jsonString(s)
		for _, req := range []struct{ method, params string }{
			{"resources/read", `{"uri":` + jsonString("quickstart://"+s) + `}`},
			{"resources/read", `{"uri":` + q + `}`},
			{"resources/read", `{"uri":` + jsonString("notes://"+s) + `}`},
			{"resources/subscribe", `{"uri":` + q + `}`},
			{"tools/call", `{"name":` + q + `,"arguments":{}}`},
			{"tools/call", `{"name":"greet","arguments":{"name":` + q + `,"x":` + q + `}}`},
			{"prompts/get", `{"name":` + q + `}`},
			{"completion/complete", `{"ref":{"type":` + q + `},"argument":{"name":"a","value":"b"}}`},
			{"completion/complete", `{"ref":{"type":"ref/prompt","name":` + q + `},"argument":{"name":` + q + `,"value":` + q + `}}`},
			{"logging/setLevel", `{"level":` + q + `}`},
			{s, `{}`},
		} {
			c.call(id, req.method, req.params)
			id++
		}
	}
	c.alive(id)
}

// jsonString writes s as a JSON string that keeps invalid UTF-8 bytes as
// they are (encoding/json would replace them).
func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// shutdownConfig is a slow tool and a short grace period.
func shutdownConfig(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "slow.yaml")
	cfg := `version: 1
server:
  stdio: {shutdown_timeout: 200ms}
tools:
  - name: slow
    description: Sleeps, leaving a mark file while it runs.
    args: [{name: mark, required: true}]
    handler:
      kind: shell
      script: 'read pid rest < /proc/self/stat; echo "$pid" > "$1"; exec sleep 120'
      params: ["${{ args.mark }}"]
      timeout: 5m
`
	if err := os.WriteFile(path, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestStdioStopCancelsCalls: when the client closes its end, or mcpgen
// gets SIGTERM, a call in flight is canceled after the grace period (its
// process killed) and mcpgen exits.
func TestStdioStopCancelsCalls(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"EOF", "SIGTERM"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			c := startRaw(t, shutdownConfig(t))
			c.initialize()
			mark := filepath.Join(t.TempDir(), "pid")
			c.send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"slow","arguments":{"mark":` + jsonString(mark) + `}}}`)
			pid := waitPID(t, mark)
			if how == "EOF" {
				_ = c.in.Close()
			} else {
				_ = c.cmd.Process.Signal(syscall.SIGTERM)
			}
			m := c.reply()
			if string(m.ID) != "5" {
				t.Errorf("reply to the call: %+v", m)
			}
			if err := c.wait(); err != nil {
				t.Errorf("mcpgen exited with %v", err)
			}
			if syscall.Kill(pid, 0) == nil {
				t.Errorf("the call's process %d still runs after mcpgen exited", pid)
			}
		})
	}
}

// eventually polls cond until it holds; a bound on a failed test, not a timing
// assertion.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(hangAfter)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: still there", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
