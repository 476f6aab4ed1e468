package httpkind

import (
	"context"
	"fmt"
	"net/http"
	"slices"

	"github.com/mcpgen/mcpgen/handlers"
)

// unforwardable are headers that describe the client's own connection or
// session with mcpgen; forwarding them would break the backend request or
// leak the session.
var unforwardable = []string{"Host", "Content-Length", "Content-Type", "Content-Encoding", "Transfer-Encoding",
	"Connection", "Keep-Alive", "Proxy-Connection", "Te", "Trailer", "Upgrade", "Expect",
	"Mcp-Session-Id", "Mcp-Protocol-Version", "Last-Event-Id", "Origin"}

// compileForward checks a forward_headers list at field and returns the
// canonical names.
func compileForward(env handlers.BuildEnv, field string, names []string) []string {
	var out []string
	for i, name := range names {
		at := fmt.Sprintf("%s[%d]", field, i)
		canon := http.CanonicalHeaderKey(name)
		switch {
		case checkHeader(name, "") != nil:
			env.Diag(at, fmt.Sprintf("invalid header name %q", name))
		case handlers.IsCredentialHeader(name):
			env.Diag(at, fmt.Sprintf("%s carries the client's credentials and is never forwarded: a token issued "+
				"for mcpgen must not reach another service; give the backend its own credentials with auth "+
				"(token_exchange acts for the caller)", canon))
		case slices.Contains(unforwardable, canon):
			env.Diag(at, fmt.Sprintf("%s belongs to the client's connection to mcpgen and cannot be forwarded", canon))
		case !slices.Contains(out, canon):
			out = append(out, canon)
		}
	}
	return out
}

// forward copies the allowed headers of the client's request onto the
// backend request, unless the config sets them itself. Nothing is forwarded
// over stdio, where there is no client request.
func forward(ctx context.Context, names []string, out http.Header) {
	if len(names) == 0 {
		return
	}
	in := handlers.IncomingHeader(ctx)
	for _, name := range names {
		if vs := in.Values(name); len(vs) > 0 && out.Get(name) == "" {
			out[name] = slices.Clone(vs)
		}
	}
}
