package httpkind

import (
	"context"
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"hash"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/expr-lang/expr/types"
	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/eval"
)

// requestType types `request` in signing expressions.
var requestType = types.Map{"method": types.String, "path": types.String, "query": types.String,
	"body": types.String, "timestamp": types.String, "url": types.String}

// signer signs each attempt of a request.
type signer struct {
	hmac *hmacSigner
	aws  *awsSigner
}

type hmacSigner struct {
	key       []byte
	hash      func() hash.Hash
	base64    bool
	header    string
	message   *eval.Value // over request; nil: the body
	value     *eval.Value // over request and signature; nil: the signature
	timestamp string      // the header carrying the timestamp, if any
}

type awsSigner struct {
	creds           aws.Credentials
	region, service string
	signer          *v4.Signer
}

var hmacHashes = map[string]func() hash.Hash{"": sha256.New, "sha256": sha256.New, "sha512": sha512.New, "sha1": sha1.New}

// buildSigner checks the signing settings; it returns nil after reporting
// a problem, or when there are none.
func buildSigner(env handlers.BuildEnv, s *Signing) (*signer, bool) {
	switch { // the loader checked that exactly one is given
	case s == nil:
		return nil, true
	case s.HMAC != nil:
		return buildHMAC(env, s.HMAC)
	case s.AWSSigV4 != nil:
		a := s.AWSSigV4
		return &signer{aws: &awsSigner{region: a.Region, service: a.Service, signer: v4.NewSigner(),
			creds: aws.Credentials{AccessKeyID: a.AccessKeyID, SecretAccessKey: a.SecretAccessKey, SessionToken: a.SessionToken}}}, true
	}
	return nil, true
}

func buildHMAC(env handlers.BuildEnv, c *HMACSigning) (*signer, bool) {
	h, ok := hmacHashes[c.Algorithm] // the loader checked the enum
	if c.Secret == "" {
		env.Warn("signing.hmac.secret", "the secret is empty; "+unsetHint)
	}
	for _, f := range []struct{ field, name string }{{"header", c.Header}, {"timestamp_header", c.TimestampHeader}} {
		if f.name == "" {
			continue
		}
		if err := checkHeader(f.name, ""); err != nil {
			env.Diag("signing.hmac."+f.field, err.Error())
			ok = false
		}
	}
	hs := &hmacSigner{key: []byte(c.Secret), hash: h, base64: c.Encoding == "base64", header: c.Header,
		timestamp: c.TimestampHeader}
	vars := types.Map{"request": requestType}
	if !c.Message.IsZero() {
		hs.message = env.Compile("signing.hmac.message", &c.Message, vars)
	}
	if !c.Value.IsZero() {
		hs.value = env.Compile("signing.hmac.value", &c.Value, types.Map{"request": requestType, "signature": types.String})
	}
	if !ok || env.Failed() {
		return nil, false
	}
	return &signer{hmac: hs}, true
}

// sign signs req, whose body is body, at now. It returns the signatures it
// made, which are masked wherever the request is shown.
func (s *signer) sign(ctx context.Context, req *http.Request, body []byte, now time.Time) ([]string, error) {
	if s == nil {
		return nil, nil
	}
	if s.aws != nil {
		return s.aws.sign(ctx, req, body, now)
	}
	return s.hmac.sign(req, body, now)
}

func (s *hmacSigner) sign(req *http.Request, body []byte, now time.Time) ([]string, error) {
	ts := strconv.FormatInt(now.Unix(), 10)
	request := map[string]any{"method": req.Method, "path": req.URL.EscapedPath(), "query": req.URL.RawQuery,
		"body": string(body), "timestamp": ts, "url": req.URL.String()}
	msg := string(body)
	if s.message != nil {
		m, err := s.message.String(map[string]any{"request": request}, nil)
		if err != nil {
			return nil, fmt.Errorf("signing the request: message: %w", err)
		}
		msg = m
	}
	mac := hmac.New(s.hash, s.key)
	mac.Write([]byte(msg))
	sig := hex.EncodeToString(mac.Sum(nil))
	if s.base64 {
		sig = base64.StdEncoding.EncodeToString(mac.Sum(nil))
	}
	value := sig
	if s.value != nil {
		v, err := s.value.String(map[string]any{"request": request, "signature": sig}, nil)
		if err != nil {
			return nil, fmt.Errorf("signing the request: value: %w", err)
		}
		value = v
	}
	if err := checkHeader(s.header, value); err != nil {
		return nil, fmt.Errorf("signing the request: %w", err)
	}
	req.Header.Set(s.header, value)
	if s.timestamp != "" {
		req.Header.Set(s.timestamp, ts)
	}
	return []string{sig}, nil
}

func (s *awsSigner) sign(ctx context.Context, req *http.Request, body []byte, now time.Time) ([]string, error) {
	sum := sha256.Sum256(body)
	req.Header.Del("Authorization") // a retry signs afresh
	if err := s.signer.SignHTTP(ctx, s.creds, req, hex.EncodeToString(sum[:]), s.service, s.region, now.UTC()); err != nil {
		return nil, fmt.Errorf("signing the request: %w", err)
	}
	_, sig, _ := strings.Cut(req.Header.Get("Authorization"), "Signature=")
	return []string{sig}, nil
}

// secrets are the signer's keys, for scrubbing error messages.
func (s *signer) secrets() []string {
	switch {
	case s == nil:
		return nil
	case s.aws != nil:
		return []string{s.aws.creds.SecretAccessKey, s.aws.creds.SessionToken}
	}
	return []string{string(s.hmac.key)}
}
