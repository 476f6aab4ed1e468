package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"testing"
	"time"
)

// rawClient drives `mcpgen serve` over stdio byte by byte, as a hostile or
// broken client would, and checks that every line the server writes is a
// JSON-RPC 2.0 message.
type rawClient struct {
	t      *testing.T
	cmd    *exec.Cmd
	in     io.WriteCloser
	lines  chan []byte
	stderr *syncBuffer
	exited chan error
}

// hangAfter is how long a test waits for a line or an exit before it calls
// the server hung: not a timing assertion, a bound on a test that failed.
const hangAfter = time.Minute

func startRaw(t *testing.T, args ...string) *rawClient {
	t.Helper()
	cmd := exec.Command(binary(t), append([]string{"serve"}, args...)...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &rawClient{t: t, cmd: cmd, in: in, lines: make(chan []byte, 64), stderr: &syncBuffer{},
		exited: make(chan error, 1)}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		r := bufio.NewReader(out)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				c.lines <- line
			}
			if err != nil {
				close(c.lines)
				c.exited <- cmd.Wait()
				return
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		if t.Failed() {
			t.Logf("server stderr:\n%s", c.stderr.String())
		}
	})
	return c
}

func (c *rawClient) send(s string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, s+"\n"); err != nil {
		c.t.Fatalf("writing to the server: %v", err)
	}
}

// message is a JSON-RPC 2.0 message as the client reads it.
type message struct {
	Version string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

// next returns the next line the server writes, checked to be one valid
// JSON-RPC 2.0 message, or a batch reply (an array of them).
func (c *rawClient) next() []message {
	c.t.Helper()
	select {
	case line, ok := <-c.lines:
		if !ok {
			c.t.Fatalf("the server ended: %v", <-c.exited)
		}
		return checkLine(c.t, line)
	case <-time.After(hangAfter):
		c.t.Fatal("the server wrote nothing")
	}
	return nil
}

func checkLine(t *testing.T, line []byte) []message {
	t.Helper()
	line = bytes.TrimSuffix(line, []byte("\n"))
	if !json.Valid(line) {
		t.Fatalf("the server wrote invalid JSON: %q", line)
	}
	var msgs []message
	if line[0] == '[' {
		if err := json.Unmarshal(line, &msgs); err != nil {
			t.Fatalf("batch reply %s: %v", line, err)
		}
	} else {
		var m message
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatalf("reply %s: %v", line, err)
		}
		msgs = []message{m}
	}
	for _, m := range msgs {
		if m.Version != "2.0" || (m.Method == "" && len(m.ID) == 0) || (m.Method == "" && (m.Result == nil) == (m.Error == nil)) {
			t.Fatalf("not a JSON-RPC 2.0 message: %s", line)
		}
		if m.Error != nil && m.Error.Code == 0 {
			t.Errorf("error without a code: %s", line)
		}
	}
	return msgs
}

// reply skips notifications and returns the next response.
func (c *rawClient) reply() message {
	c.t.Helper()
	for {
		msgs := c.next()
		if len(msgs) != 1 || msgs[0].Method == "" {
			return msgs[0]
		}
	}
}

// call sends a request and returns its response.
func (c *rawClient) call(id int, method, params string) message {
	c.t.Helper()
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params))
	m := c.reply()
	if string(m.ID) != fmt.Sprint(id) {
		c.t.Fatalf("%s: reply to id %s, want %d", method, m.ID, id)
	}
	return m
}

func (c *rawClient) initialize() {
	c.t.Helper()
	m := c.call(0, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}`)
	if m.Error != nil {
		c.t.Fatalf("initialize: %s", m.Error.Message)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// alive checks the server still answers.
func (c *rawClient) alive(id int) {
	c.t.Helper()
	if m := c.call(id, "ping", "{}"); m.Error != nil {
		c.t.Fatalf("ping: %s", m.Error.Message)
	}
}

// wait returns the server's exit error once it has exited.
func (c *rawClient) wait() error {
	c.t.Helper()
	for range c.lines { // drain what is left
	}
	select {
	case err := <-c.exited:
		return err
	case <-time.After(hangAfter):
		c.t.Fatal("the server did not exit")
	}
	return nil
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
