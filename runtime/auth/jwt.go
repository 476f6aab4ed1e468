package auth

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// PublicKeyAlgorithms are the signature algorithms a token may use: public
// key ones only. `none` and the HMAC family (HS*) are never accepted: with
// a public key set, an HMAC "signature" could be forged with the public key
// as the secret.
var PublicKeyAlgorithms = []string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"}

// jwtVerifier checks signed JWT access tokens (RFC 9068).
type jwtVerifier struct {
	parser      *jwt.Parser
	issuer      string
	keys        *keySource
	scopesClaim string
	implies     hierarchy
	leeway      time.Duration
	cache       *tokenCache // verified tokens
}

// jwtCacheFor bounds how long a verified token is reused without checking
// its signature again: no longer than the key set is trusted between two
// refreshes.
const jwtCacheFor = 5 * time.Minute

func newJWTVerifier(keys *keySource, issuer string, audiences, algs []string, leeway time.Duration, scopesClaim string) *jwtVerifier {
	p := jwt.NewParser(jwt.WithValidMethods(algs), jwt.WithIssuer(issuer), jwt.WithAudience(audiences...),
		jwt.WithExpirationRequired(), jwt.WithLeeway(leeway))
	return &jwtVerifier{parser: p, issuer: issuer, keys: keys, scopesClaim: scopesClaim, leeway: leeway, cache: newTokenCache()}
}

// verify checks a token, or finds it checked already: the same bytes,
// verified less than jwtCacheFor ago and not expired since.
// key is the token's SHA-256.
func (v *jwtVerifier) verify(ctx context.Context, raw string) (*Caller, time.Time, error) {
	now := time.Now()
	if e, ok := v.cache.get(raw, now); ok {
		return e.caller, e.exp, nil
	}
	c, exp, err := v.check(ctx, raw)
	if err == nil {
		v.cache.put(raw, verdict{caller: c, exp: exp, until: minTime(exp.Add(v.leeway), now.Add(jwtCacheFor))}, now)
	}
	return c, exp, err
}

func (v *jwtVerifier) check(ctx context.Context, raw string) (*Caller, time.Time, error) {
	claims := jwt.MapClaims{}
	keyfunc := v.keys.keyfunc(ctx)
	checked := func(t *jwt.Token) (any, error) {
		// RFC 7515 §4.1.11: a token whose crit header names extensions
		// the verifier does not understand must be refused; mcpgen
		// understands none (the JWT library does not check crit).
		if _, ok := t.Header["crit"]; ok {
			return nil, errors.New(`the "crit" header names extensions mcpgen does not understand`)
		}
		return keyfunc(t)
	}
	if _, err := v.parser.ParseWithClaims(raw, claims, checked); err != nil {
		if errors.Is(err, ErrUnavailable) {
			return nil, time.Time{}, err
		}
		return nil, time.Time{}, fmt.Errorf("%w: %v", ErrInvalidToken, err)
	}
	sub, _ := claims.GetSubject()
	if sub == "" {
		return nil, time.Time{}, fmt.Errorf("%w: no subject", ErrInvalidToken)
	}
	exp, _ := claims.GetExpirationTime() // required by the parser
	c := Caller{Subject: sub, ClientID: clientID(claims), Scopes: v.implies.expand(scopesOf(claims[v.scopesClaim])), Claims: claims}
	return issuedCaller(c, raw, v.issuer, exp.Time), exp.Time, nil
}

// clientID is the OAuth client a token was issued to: `client_id` (RFC
// 9068), else `azp` (OpenID Connect).
func clientID(claims map[string]any) string {
	if s, ok := claims["client_id"].(string); ok {
		return s
	}
	s, _ := claims["azp"].(string)
	return s
}

// scopesOf reads a scopes claim: a space-separated string (`scope`, RFC
// 9068) or an array of strings (`scp` at some providers, `permissions`).
func scopesOf(v any) []string {
	switch v := v.(type) {
	case string:
		return strings.Fields(v)
	case []any:
		var out []string
		for _, s := range v {
			if s, ok := s.(string); ok && s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// looksLikeJWT reports whether a credential has a JWS compact form's three
// dot-separated parts.
func looksLikeJWT(s string) bool { return strings.Count(s, ".") == 2 }
