package httpkind

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
)

// DryRun returns the request a call would send (method, URL, headers and
// body), with credentials masked, and sends nothing.
func (h *handler) DryRun(ctx context.Context, c *handlers.Call) (string, error) {
	out, err := h.build(c.Vars())
	if err != nil {
		return "", h.fail(err)
	}
	forward(ctx, h.forward, out.header)
	req := out.request(context.Background())
	if a := h.be.auth; a != nil {
		if !a.fetches() {
			if err := a.apply(context.Background(), req); err != nil {
				return "", h.fail(err)
			}
		}
		a.mask(req)
	}
	sigs, err := h.be.signer.sign(ctx, req, out.body, time.Now())
	if err != nil {
		return "", h.fail(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s\n", req.Method, req.URL.String())
	for _, name := range slices.Sorted(maps.Keys(req.Header)) {
		for _, v := range req.Header[name] {
			for _, sig := range sigs {
				v = strings.ReplaceAll(v, sig, "****")
			}
			fmt.Fprintf(&b, "%s: %s\n", name, v)
		}
	}
	if out.body != nil {
		b.WriteString("\n")
		b.Write(out.body)
		if len(out.body) > 0 && out.body[len(out.body)-1] != '\n' {
			b.WriteString("\n")
		}
	}
	return h.scrub(b.String()), nil
}

var _ handlers.DryRunner = (*handler)(nil)
