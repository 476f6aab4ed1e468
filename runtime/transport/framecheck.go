package transport

import (
	"bytes"
	"encoding/json"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
)

// frameError is the reply to a frame that is not a valid JSON-RPC 2.0
// message: the spec's error, addressed to the id the frame carried.
type frameError struct {
	id      json.RawMessage // raw id token; nil: no id to answer, drop it
	code    int64
	message string
}

// Replies to malformed frames.
const (
	msgParseError = "parse error: the line is not JSON"
	msgBatch      = "invalid request: batches are not supported; send one message per line"
	msgVersion    = `invalid request: "jsonrpc" must be "2.0"`
	msgBadID      = "invalid request: id must be a string or an integer"
	msgNotRequest = "invalid request: not a JSON-RPC 2.0 message"
)

// decodeFrame turns one line into a message. A line that is not a valid
// JSON-RPC 2.0 message gives instead the error the spec assigns it: -32700
// for text that is not JSON, -32600 for JSON that is not a message. A blank
// line gives neither.
func decodeFrame(line []byte) (jsonrpc.Message, *frameError) {
	fi := scanFrame(line)
	msg, err := jsonrpc.DecodeMessage(line)
	if err == nil {
		return checkID(msg, fi)
	}
	if len(bytes.TrimSpace(line)) == 0 {
		return nil, nil
	}
	return nil, classify(line, fi)
}

// checkID refuses the ids the SDK would accept wrongly: a fraction or an
// integer beyond float64 precision (it would truncate them), and null on a
// request (it would take it for a notification).
func checkID(msg jsonrpc.Message, fi frameInfo) (jsonrpc.Message, *frameError) {
	if len(fi.id) == 0 {
		return msg, nil
	}
	switch fi.id[0] {
	case '"':
		return msg, nil
	case 'n':
		if fi.hasMethod {
			return nil, &frameError{id: json.RawMessage("null"), code: jsonrpc.CodeInvalidRequest, message: msgBadID}
		}
		return msg, nil
	}
	want, ok := exactInt(fi.id)
	if got, isInt := messageID(msg).Raw().(int64); ok && isInt && got == want {
		return msg, nil
	}
	ferr := &frameError{id: scalarID(fi.id), code: jsonrpc.CodeInvalidRequest, message: msgBadID}
	if !fi.hasMethod {
		ferr.id = nil // a response: never answered
	}
	return nil, ferr
}

// badID reports, from the bytes alone, a request id the go-sdk would take
// wrongly: null (a notification to it), a fraction or an integer beyond
// float64 precision (it truncates them).
func badID(fi frameInfo) bool {
	if len(fi.id) == 0 || !fi.hasMethod || fi.id[0] == '"' || fi.id[0] == '{' || fi.id[0] == '[' {
		return false
	}
	if fi.id[0] == 'n' {
		return true
	}
	_, ok := exactInt(fi.id)
	return !ok && scalarID(fi.id) != nil
}

func messageID(msg jsonrpc.Message) jsonrpc.ID {
	switch m := msg.(type) {
	case *jsonrpc.Request:
		return m.ID
	case *jsonrpc.Response:
		return m.ID
	}
	return jsonrpc.ID{}
}

// exactInt parses a JSON integer token of at most 15 digits, which float64
// (the SDK's path for numeric ids) holds exactly.
func exactInt(tok []byte) (int64, bool) {
	neg := len(tok) > 0 && tok[0] == '-'
	if neg {
		tok = tok[1:]
	}
	if len(tok) == 0 || len(tok) > 15 {
		return 0, false
	}
	var n int64
	for _, c := range tok {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// classify names what is wrong with a frame the SDK could not decode.
func classify(line []byte, fi frameInfo) *frameError {
	switch {
	case !json.Valid(line):
		// JSON-RPC 2.0 §5: when the id cannot be read, as in a parse
		// error, the error's id is null.
		id := scalarID(fi.id)
		if id == nil {
			id = json.RawMessage("null")
		}
		return &frameError{id: id, code: jsonrpc.CodeParseError, message: msgParseError}
	case fi.array:
		return &frameError{id: nil, code: jsonrpc.CodeInvalidRequest, message: msgBatch}
	}
	var probe struct {
		Version *string `json:"jsonrpc"`
	}
	isObject := json.Unmarshal(line, &probe) == nil
	msg := msgNotRequest
	if isObject && (probe.Version == nil || *probe.Version != "2.0") {
		msg = msgVersion
	} else if fi.id != nil && scalarID(fi.id) == nil {
		msg = msgBadID
	}
	return &frameError{id: scalarID(fi.id), code: jsonrpc.CodeInvalidRequest, message: msg}
}

// scalarID returns tok if it can address a reply: a JSON string, number or
// null. Objects, arrays, booleans and broken tokens cannot.
func scalarID(tok []byte) json.RawMessage {
	if len(tok) == 0 || !json.Valid(tok) {
		return nil
	}
	switch c := tok[0]; {
	case c == '"', c == 'n', c == '-', c >= '0' && c <= '9':
		return json.RawMessage(tok)
	}
	return nil
}

// batchReplies answers each request of a batch that has an id: batches
// were removed from MCP in 2025-06-18 and mcpgen does not serve them.
func batchReplies(line []byte) []frameError {
	var items []json.RawMessage
	if json.Unmarshal(line, &items) != nil {
		return nil
	}
	var out []frameError
	for _, item := range items {
		fi := scanFrame(item)
		if id := scalarID(fi.id); id != nil && fi.hasMethod {
			out = append(out, frameError{id: id, code: jsonrpc.CodeInvalidRequest, message: msgBatch})
		}
	}
	return out
}

// errorReply is a JSON-RPC error response on the wire.
type errorReply struct {
	Version string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   jsonrpc.Error   `json:"error"`
}

func (e *frameError) reply() errorReply {
	return errorReply{Version: "2.0", ID: e.id, Error: jsonrpc.Error{Code: e.code, Message: e.message}}
}
