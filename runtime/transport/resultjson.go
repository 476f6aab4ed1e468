package transport

import (
	"sync"

	segjson "github.com/segmentio/encoding/json"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// encodeResult encodes a tool result the way the go-sdk does, to the same
// bytes (TestEncodeResultAsSDK), in one pass. The go-sdk's way goes
// through three MarshalJSON methods (the result's, then each content's),
// each a json.Marshal whose output encoding/json checks and compacts again
// at every level above it; for a SQL tool that is most of the cost of
// answering. It handles what tools return, text content and structured
// content, and reports false for the rest (_meta, annotations, input
// requests, other kinds of content), which the go-sdk then encodes.
//
// The direct paths give mcp.ServerSession.Answer a resultBuffer's encode.
func encodeResult(res mcp.Result) ([]byte, bool) {
	return appendResult(make([]byte, 0, 512), res)
}

// appendResult appends the encoding of res to b, as encodeResult.
func appendResult(b []byte, res mcp.Result) ([]byte, bool) {
	r, ok := res.(*mcp.CallToolResult)
	if !ok || r == nil || r.Meta != nil || r.InputRequests != nil || r.RequestState != "" || len(r.Content) == 0 {
		return nil, false
	}
	w := wireResultPool.Get().(*wireResult)
	defer func() {
		clear(w.Content)
		w.Content, w.StructuredContent = w.Content[:0], nil
		wireResultPool.Put(w)
	}()
	for _, c := range r.Content {
		t, ok := c.(*mcp.TextContent)
		if !ok || t == nil || t.Meta != nil || t.Annotations != nil {
			return nil, false
		}
		w.Content = append(w.Content, wireText{Type: "text", Text: t.Text})
	}
	w.StructuredContent, w.IsError = r.StructuredContent, r.IsError
	// encoding/json's defaults, which the go-sdk's json.Marshal calls use:
	// HTML characters escaped, map keys sorted.
	data, err := segjson.Append(b, w, segjson.EscapeHTML|segjson.SortMapKeys)
	if err != nil {
		return nil, false
	}
	return data, true
}

// resultBuffer holds the buffer a direct call's result is encoded into
// (encode, given to mcp.ServerSession.Answer): a pooled one, given back
// by release once the response has been written or copied. The result is
// most of what a call allocates that outlives it.
type resultBuffer struct{ b *[]byte }

var resultBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}

func (rb *resultBuffer) encode(res mcp.Result) ([]byte, bool) {
	if rb.b == nil {
		rb.b = resultBuffers.Get().(*[]byte)
	}
	data, ok := appendResult((*rb.b)[:0], res)
	if ok {
		*rb.b = data
	}
	return data, ok
}

// release gives the buffer back: nothing may read the result after.
func (rb *resultBuffer) release() {
	if rb.b != nil && cap(*rb.b) <= maxPooledBody {
		resultBuffers.Put(rb.b)
	}
	rb.b = nil
}

// wireResult is a CallToolResult as the go-sdk writes it, fields in its
// order, without the methods that make encoding/json slow.
type wireResult struct {
	Content           []wireText `json:"content"`
	StructuredContent any        `json:"structuredContent,omitempty"`
	IsError           bool       `json:"isError,omitempty"`
}

type wireText struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

var wireResultPool = sync.Pool{New: func() any { return new(wireResult) }}
