package transport

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// safeErrors makes every protocol error a method returns safe to put on the
// wire: a JSON-RPC code, and data that is valid JSON. The go-sdk builds the
// data of "resource not found" with Go quoting (%q), which is not JSON for
// a URI holding a control character or invalid UTF-8; sending it would fail
// and end the session. It runs on errors only.
func safeErrors(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err == nil {
			return res, nil
		}
		var we *jsonrpc.Error
		if !errors.As(err, &we) {
			return res, err // the SDK gives it a code; ServeStdio's connection too
		}
		if we.Data == nil || json.Valid(we.Data) {
			return res, err
		}
		fixed := *we
		fixed.Data = nil
		if r, ok := req.(*mcp.ReadResourceRequest); ok && r.Params != nil && we.Code == mcp.CodeResourceNotFound {
			fixed.Data, _ = json.Marshal(struct {
				URI string `json:"uri"`
			}{r.Params.URI})
		}
		return res, &fixed
	}
}

// safeWireError returns err as a JSON-RPC error whose data is valid JSON
// (dropped when not) and whose code is not 0 (code given instead).
func safeWireError(err error, code int64) *jsonrpc.Error {
	var we *jsonrpc.Error
	if !errors.As(err, &we) {
		return &jsonrpc.Error{Code: code, Message: err.Error()}
	}
	fixed := jsonrpc.Error{Code: we.Code, Message: err.Error(), Data: we.Data}
	if fixed.Code == 0 {
		fixed.Code = code
	}
	if fixed.Data != nil && !json.Valid(fixed.Data) {
		fixed.Data = nil
	}
	return &fixed
}

var _ mcp.Middleware = safeErrors
