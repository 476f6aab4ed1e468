package openapi

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
)

// sources reads the description and the files and URLs its $refs name,
// as its LoadOptions allow.
type sources struct {
	root   *url.URL
	opts   LoadOptions
	client *http.Client // for remote refs
}

// read reads the description itself (always) or what a $ref names (when
// the options allow it). A refusal names the ref and the flag that allows
// it, never what the file or URL holds.
func (s *sources) read(loader *openapi3.Loader, loc *url.URL) ([]byte, error) {
	if *loc == *s.root {
		return fetch(loader.Context, http.DefaultClient, loc)
	}
	if err := s.allowed(loc); err != nil {
		return nil, fmt.Errorf("$ref to %s refused: %w", loc.Redacted(), err)
	}
	data, err := fetch(loader.Context, s.client, loc)
	if err != nil {
		return nil, fmt.Errorf("$ref to %s: %w", loc.Redacted(), quiet(err))
	}
	return data, nil
}

// allowed says why a $ref may not read loc, or nil.
func (s *sources) allowed(loc *url.URL) error {
	switch loc.Scheme {
	case "", "file":
		if !s.opts.FileRefs {
			return errors.New("refs resolve within the description unless --file-refs lets them read files in its folder")
		}
		if s.root.Scheme != "" && s.root.Scheme != "file" {
			return errors.New("a description read from a URL cannot refer to local files")
		}
		return within(filepath.Dir(filepath.FromSlash(s.root.Path)), filepath.FromSlash(loc.Path))
	case "http", "https":
		if !s.opts.RemoteRefs {
			return errors.New("refs resolve within the description unless --remote-refs lets them fetch URLs")
		}
		return nil // the address is checked when the client dials it
	}
	return fmt.Errorf("only files and http(s) URLs can be referred to, not %s:", loc.Scheme)
}

// within refuses path unless it is dir or below it, symbolic links
// resolved.
func within(dir, path string) error {
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return err
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return quiet(err)
	}
	if rel, err := filepath.Rel(realDir, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return fmt.Errorf("it is outside the description's folder %s", dir)
	}
	return nil
}

// fetch reads loc: a file, or a URL with client.
func fetch(ctx context.Context, client *http.Client, loc *url.URL) ([]byte, error) {
	if loc.Scheme == "" || loc.Scheme == "file" {
		f, err := os.Open(filepath.FromSlash(loc.Path))
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if fi, err := f.Stat(); err == nil && !fi.Mode().IsRegular() {
			return nil, fmt.Errorf("%s is not a regular file", loc.Path)
		}
		return readCapped(f, loc)
	}
	if loc.Scheme != "http" && loc.Scheme != "https" {
		return nil, fmt.Errorf("%s: only files and http(s) URLs can be read", loc.Redacted())
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, loc.String(), nil)
	if err != nil {
		return nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", loc.Redacted(), resp.Status)
	}
	return readCapped(resp.Body, loc)
}

// quiet keeps an error's kind and drops what it may quote.
func quiet(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s %s: %w", pe.Op, pe.Path, pe.Err)
	}
	return err
}

// refClient fetches remote refs. It dials only public addresses, checked
// after the name is resolved (so a name cannot be rebound to a private
// address between a check and the connection), except for the hosts in
// allow, and follows no redirect to a host it would not dial.
func refClient(allow []string) *http.Client {
	dialer := &net.Dialer{Timeout: 10 * time.Second}
	public := &net.Dialer{Timeout: 10 * time.Second, Control: func(_, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return err
		}
		if ip := net.ParseIP(host); ip == nil || !publicIP(ip) {
			return fmt.Errorf("%s is not a public address; allow its host by name with --allow-ref-host", host)
		}
		return nil
	}}
	transport := &http.Transport{Proxy: nil, TLSHandshakeTimeout: 10 * time.Second, ResponseHeaderTimeout: 30 * time.Second,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			host, _, _ := net.SplitHostPort(addr)
			if slices.ContainsFunc(allow, func(h string) bool { return strings.EqualFold(h, host) }) {
				return dialer.DialContext(ctx, network, addr)
			}
			return public.DialContext(ctx, network, addr)
		}}
	return &http.Client{Transport: transport, Timeout: time.Minute}
}

// publicIP reports whether ip is an address of the public internet: not
// loopback, private, link-local (cloud metadata at 169.254.169.254),
// unspecified, multicast, shared (100.64.0.0/10) or IPv4-mapped to one.
func publicIP(ip net.IP) bool {
	if v4 := ip.To4(); v4 != nil {
		ip = v4
		if v4[0] == 0 || (v4[0] == 100 && v4[1]&0xc0 == 64) {
			return false
		}
	}
	return !(ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified())
}
