package transport

import (
	"strconv"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
)

// encodeLine returns msg as one line of stdio output, newline included.
//
// A successful response, most of what stdio writes, is put together from
// its parts: its result was encoded by the go-sdk (jsonrpc2.NewResponse
// marshals it with encoding/json, which checks and compacts it), and
// jsonrpc.EncodeMessage would check and compact every byte of it once
// more. The bytes are the same either way (TestEncodeLineAsSDK); anything
// else, and an id that would need escaping, goes through EncodeMessage.
func encodeLine(msg jsonrpc.Message) ([]byte, error) {
	if r, ok := msg.(*jsonrpc.Response); ok {
		if line, ok := appendResultHead(make([]byte, 0, len(r.Result)+len(`{"jsonrpc":"2.0","id":,"result":}`)+32), r); ok {
			line = append(line, r.Result...)
			return append(line, "}\n"...), nil
		}
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// appendResultHead appends what comes before the result of a successful
// response r, `{"jsonrpc":"2.0","id":ID,"result":`, when its id needs no
// escaping; what follows the result is "}". It reports false, appending
// nothing, for any other response.
func appendResultHead(b []byte, r *jsonrpc.Response) ([]byte, bool) {
	if r.Error != nil || len(r.Result) == 0 {
		return b, false
	}
	head, ok := appendPlainID(append(b, `{"jsonrpc":"2.0","id":`...), r.ID)
	if !ok {
		return b, false
	}
	return append(head, `,"result":`...), true
}

// appendPlainID appends id as EncodeMessage writes it, if that needs no
// escaping: an integer, or a string of ASCII without control characters,
// quotes or backslashes. It reports false, appending nothing, otherwise.
func appendPlainID(b []byte, id jsonrpc.ID) ([]byte, bool) {
	switch v := id.Raw().(type) {
	case int64:
		return strconv.AppendInt(b, v, 10), true
	case string:
		for i := 0; i < len(v); i++ {
			if c := v[i]; c < ' ' || c == '"' || c == '\\' || c >= utf8.RuneSelf {
				return b, false
			}
		}
		b = append(b, '"')
		b = append(b, v...)
		return append(b, '"'), true
	}
	return b, false
}
