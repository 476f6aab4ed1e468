package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/MicahParks/keyfunc/v3"
	"github.com/golang-jwt/jwt/v5"
	sdkauth "github.com/mcpgen/mcpgen/runtime/internal/gosdk/auth"
	"golang.org/x/time/rate"
)

// Settings of the key cache.
const (
	// keysRefreshInterval is how often the key set is refetched in the
	// background, so that a rotation is seen even before a new key id shows.
	keysRefreshInterval = 15 * time.Minute
	// keysWaitMax bounds how long a request with an unknown key id waits
	// for the refetch limiter: past it the token is refused at once rather
	// than holding the request.
	keysWaitMax = 250 * time.Millisecond
	// keysRetry is how long a failed discovery or first fetch is remembered
	// before it is tried again.
	keysRetry    = 5 * time.Second
	fetchTimeout = 10 * time.Second
)

// keySource is the issuer's signing keys, fetched on first use: from the
// configured JWKS URL, or from the jwks_uri of the issuer's metadata. After
// that, keyfunc keeps them fresh: a periodic refresh, and a refetch
// (rate-limited) when a token names an unknown key id.
type keySource struct {
	issuer, url  string
	refreshLimit time.Duration
	client       *http.Client
	ctx          context.Context // ends the background refresh
	mu           sync.Mutex
	kf           keyfunc.Keyfunc
	failedAt     time.Time
	failure      error
}

// get returns the key lookup, fetching the keys the first time.
func (k *keySource) get(ctx context.Context) (keyfunc.Keyfunc, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.kf != nil {
		return k.kf, nil
	}
	if k.failure != nil && time.Since(k.failedAt) < keysRetry {
		return nil, k.failure
	}
	kf, err := k.open(ctx)
	if err != nil {
		k.failure, k.failedAt = fmt.Errorf("%w: %v", ErrUnavailable, err), time.Now()
		return nil, k.failure
	}
	k.kf = kf
	return kf, nil
}

func (k *keySource) open(ctx context.Context) (keyfunc.Keyfunc, error) {
	url := k.url
	if url == "" {
		ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
		defer cancel()
		meta, err := sdkauth.GetAuthServerMetadata(ctx, k.issuer, k.client)
		if err != nil {
			return nil, fmt.Errorf("discovering the keys of %s: %w", k.issuer, err)
		}
		if meta == nil || meta.JWKSURI == "" {
			return nil, fmt.Errorf("the metadata of %s names no jwks_uri", k.issuer)
		}
		url = meta.JWKSURI
	}
	failFirst := false
	kf, err := keyfunc.NewDefaultOverrideCtx(k.ctx, []string{url}, keyfunc.Override{
		Client:                    k.client,
		HTTPTimeout:               fetchTimeout,
		NoErrorReturnFirstHTTPReq: &failFirst,
		RateLimitWaitMax:          keysWaitMax,
		RefreshInterval:           keysRefreshInterval,
		RefreshUnknownKID:         rate.NewLimiter(rate.Every(k.refreshLimit), 1),
		RefreshErrorHandlerFunc:   func(string) func(context.Context, error) { return func(context.Context, error) {} },
	})
	if err != nil {
		return nil, fmt.Errorf("fetching the keys at %s: %w", url, err)
	}
	return kf, nil
}

// keyfunc returns the jwt key lookup for one verification.
func (k *keySource) keyfunc(ctx context.Context) jwt.Keyfunc {
	return func(t *jwt.Token) (any, error) {
		kf, err := k.get(ctx)
		if err != nil {
			return nil, err
		}
		return kf.KeyfuncCtx(ctx)(t)
	}
}

// noRedirects refuses every redirect: keys and metadata are fetched from
// the configured origin only.
func noRedirects(*http.Request, []*http.Request) error {
	return errors.New("redirects are not followed")
}
