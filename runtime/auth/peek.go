package auth

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
)

// ScannedBody is a request body that the server read whole, and scanned,
// before the guard sees it: the guard takes the named item from the scan
// instead of reading and decoding the body a second time. The HTTP
// transport's bodies are ScannedBodies; any other body is read.
type ScannedBody interface {
	io.Reader
	// Bytes returns the whole body.
	Bytes() []byte
	// Item returns what a single JSON-RPC request in the body acts on:
	// for tools/call and prompts/get the method and the name, for
	// resources/read the method and the URI; for any other request, two
	// empty strings. ok is false when the scan cannot tell for certain
	// what a JSON decoder would see (a batch, an escape sequence, a key
	// that differs from a known one only in case, a key given twice): the
	// guard then decodes Bytes.
	Item() (method, name string, ok bool)
}

// call is what scope checks need of one JSON-RPC request.
type call struct{ method, name string }

// rpcRequest is the part of a JSON-RPC request that names what it acts on.
type rpcRequest struct {
	Method string `json:"method"`
	Params struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
	} `json:"params"`
}

// namesItems reports whether a body may hold a request for a named item:
// a cheap test that spares decoding the bodies of all other requests. A
// body with an escape sequence is always decoded: "tools\/call" is
// tools/call too.
func namesItems(body []byte) bool {
	return bytes.IndexByte(body, '\\') >= 0 || bytes.Contains(body, []byte("tools/call")) ||
		bytes.Contains(body, []byte("prompts/get")) || bytes.Contains(body, []byte("resources/read"))
}

// peekCalls reads the JSON-RPC request (or batch) in r's body, puts the
// body back for the next handler, and returns the requests that act on a
// named item (see decodeCalls).
func peekCalls(r *http.Request) []call {
	if r.Body == nil {
		return nil
	}
	body, err := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return nil
	}
	return decodeCalls(body)
}

// decodeCalls returns the requests of a JSON-RPC request (or batch) that
// act on a named item: tools/call, prompts/get and resources/read. A body
// that does not parse yields none: the go-sdk answers it.
func decodeCalls(body []byte) []call {
	if !namesItems(body) {
		return nil // initialize, notifications, lists: nothing to decode
	}
	body = bytes.TrimLeft(body, " \t\r\n")
	var reqs []rpcRequest
	if len(body) > 0 && body[0] == '[' {
		if json.Unmarshal(body, &reqs) != nil {
			return nil
		}
	} else {
		var one rpcRequest
		if json.Unmarshal(body, &one) != nil {
			return nil
		}
		reqs = []rpcRequest{one}
	}
	var out []call
	for _, q := range reqs {
		switch q.Method {
		case "tools/call", "prompts/get":
			out = append(out, call{q.Method, q.Params.Name})
		case "resources/read":
			out = append(out, call{q.Method, q.Params.URI})
		}
	}
	return out
}
