// Command echobench is the smallest MCP server that still speaks the
// protocol: hand-written JSON-RPC over Streamable HTTP (plain JSON responses,
// no sessions) or stdio, one tool "echo" that returns its "text" argument,
// and no SDK. scripts/bench-peer.sh runs it beside mcpgen serving the same
// tool without a backend: what mcpgen costs above it is the price of the
// protocol layer, the argument validation and the templates, as opposed to
// the machine's own limit (net/http, encoding/json, the kernel).
//
//	echobench -http 127.0.0.1:8080   # Streamable HTTP at /mcp
//	echobench                        # stdio
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("echobench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("http", "", "serve Streamable HTTP at ADDR (endpoint /mcp) instead of stdio")
	fs.StringVar(&alias, "as", "", "also answer tools/call of tool `NAME`, with its arguments' JSON as the text (to stand beside a server whose tool has another name)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *addr == "" {
		if err := serveStdio(stdin, stdout); err != nil {
			fmt.Fprintln(stderr, "echobench:", err)
			return 1
		}
		return 0
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv := &http.Server{Addr: *addr, Handler: handler()}
	go func() { <-ctx.Done(); _ = srv.Close() }()
	if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(stderr, "echobench:", err)
		return 1
	}
	return 0
}

// request is a JSON-RPC request or notification (no id).
type request struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

// response is a JSON-RPC response: a result or an error.
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// handle answers one message; nil for a notification.
func handle(msg []byte) *response {
	var req request
	if err := json.Unmarshal(msg, &req); err != nil {
		return &response{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &rpcError{-32700, "parse error"}}
	}
	if len(req.ID) == 0 {
		return nil
	}
	res := &response{JSONRPC: "2.0", ID: req.ID}
	switch req.Method {
	case "initialize":
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		_ = json.Unmarshal(req.Params, &p)
		res.Result = map[string]any{"protocolVersion": p.ProtocolVersion,
			"capabilities": map[string]any{"tools": map[string]any{}},
			"serverInfo":   map[string]any{"name": "echobench", "version": "1"}}
	case "ping":
		res.Result = struct{}{}
	case "tools/list":
		res.Result = map[string]any{"tools": []any{map[string]any{"name": "echo", "description": "Echoes its argument.",
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}}}}}
	case "tools/call":
		res.Result, res.Error = call(req.Params)
	default:
		res.Error = &rpcError{-32601, "method not found"}
	}
	return res
}

// textResult is a tools/call result with one text block.
type textResult struct {
	Content []textContent `json:"content"`
}

type textContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// alias is a second tool name answered, set by -as.
var alias string

func call(params json.RawMessage) (any, *rpcError) {
	var p struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, &rpcError{-32602, "invalid params"}
	}
	switch {
	case p.Name == "echo":
		var args struct {
			Text string `json:"text"`
		}
		if err := json.Unmarshal(p.Arguments, &args); err != nil {
			return nil, &rpcError{-32602, "invalid arguments"}
		}
		return textResult{Content: []textContent{{Type: "text", Text: args.Text}}}, nil
	case alias != "" && p.Name == alias:
		return textResult{Content: []textContent{{Type: "text", Text: string(p.Arguments)}}}, nil
	}
	return nil, &rpcError{-32602, fmt.Sprintf("unknown tool %q", p.Name)}
}

// handler serves POST /mcp: a notification gets 202, a request its
// response as application/json.
func handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /mcp", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 4<<20))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		res := handle(body)
		if res == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		out, _ := json.Marshal(res)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(out)
	})
	return mux
}

// serveStdio answers newline-delimited messages until in ends.
func serveStdio(in io.Reader, out io.Writer) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	w := bufio.NewWriter(out)
	for sc.Scan() {
		res := handle(sc.Bytes())
		if res == nil {
			continue
		}
		b, _ := json.Marshal(res)
		_, _ = w.Write(append(b, '\n'))
		if err := w.Flush(); err != nil {
			return err
		}
	}
	return sc.Err()
}
