package httpkind

import (
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/mcpgen/mcpgen/handlers"
)

// Ping sends HEAD to the backend's base URL, without its headers or
// credentials: any answer, whatever its status, means the API is
// reachable; only no answer is a failure.
func (b *backend) Ping(ctx context.Context) error {
	if b.base == nil {
		return fmt.Errorf("the backend has no base_url to check")
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, b.base.String(), nil)
	if err != nil {
		return err
	}
	resp, err := b.transport.RoundTrip(req)
	if err != nil {
		// scheme and host only: the path may carry secrets
		return fmt.Errorf("no response from %s://%s: %w", b.base.Scheme, b.base.Host, transportError(err))
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
	return resp.Body.Close()
}

var _ handlers.Pinger = (*backend)(nil)
