// Package openapi converts an OpenAPI 3.0 or 3.1 or a Swagger 2.0
// description into an mcpgen config: one http backend per server, one tool
// per operation, written as YAML a person can read and edit.
//
// Parsing and $ref resolution are kin-openapi's; Swagger 2.0 documents are
// converted to OpenAPI 3 by its openapi2conv first, so the rest of the
// package reads one model.
package openapi

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/getkin/kin-openapi/openapi2"
	"github.com/getkin/kin-openapi/openapi2conv"
	"github.com/getkin/kin-openapi/openapi3"
	yaml "go.yaml.in/yaml/v4"
)

// Document is a loaded API description.
type Document struct {
	// T is the description as OpenAPI 3.
	T *openapi3.T
	// Version is the version the document declared: "2.0", "3.0.3", "3.1.0".
	Version string
	// Source is where it was read from, a URL for remote documents.
	Source *url.URL
}

// maxDocument bounds the bytes read from one document or referenced file.
const maxDocument = 64 << 20

// LoadOptions say what the $refs of a description may reach besides the
// document itself. The zero value resolves refs within the document only:
// a description from elsewhere cannot make the import read local files
// or reach the network.
type LoadOptions struct {
	// FileRefs lets $refs read files in the description's folder and
	// below (not through a symbolic link leading out of it).
	FileRefs bool
	// RemoteRefs lets $refs fetch http(s) URLs, except at loopback,
	// private, link-local and other non-public addresses, unless the URL's
	// host is one of AllowHosts.
	RemoteRefs bool
	// AllowHosts are hosts remote refs may reach whatever their address.
	AllowHosts []string
	// MaxOperations refuses a description with more operations, before
	// it is resolved; DefaultMaxOperations when 0.
	MaxOperations int
}

// DefaultMaxOperations is the most operations a description may have:
// four times GitHub's REST API (1,223 operations, a 7.3 MiB config). The
// config written is also refused past the 16 MiB mcpgen loads.
const DefaultMaxOperations = 5000

// Load reads the description at source, a file path or an http(s) URL, and
// resolves its $refs as opts allows.
func Load(ctx context.Context, source string, opts LoadOptions) (*Document, error) {
	loc, err := location(source)
	if err != nil {
		return nil, err
	}
	src := &sources{root: loc, opts: opts, client: refClient(opts.AllowHosts)}
	loader := openapi3.NewLoader()
	loader.Context = ctx
	loader.IsExternalRefsAllowed = opts.FileRefs || opts.RemoteRefs
	loader.ReadFromURIFunc = src.read
	data, err := src.read(loader, loc)
	if err != nil {
		return nil, err
	}
	var node *yaml.Node // the JSON document as nodes, read once
	if isJSON(data) {
		if node, err = jsonNode(data); err != nil {
			return nil, fmt.Errorf("reading %s: %w", source, err)
		}
	}
	version, err := declared(data, node, cmp.Or(opts.MaxOperations, DefaultMaxOperations))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", source, err)
	}
	var doc *openapi3.T
	switch {
	case version == "2.0":
		doc, err = loadV2(loader, data, loc)
	case strings.HasPrefix(version, "3."):
		doc, err = loadV3(loader, data, node, loc)
	default:
		return nil, fmt.Errorf("%s: neither `openapi: 3.x` nor `swagger: \"2.0\"` at the top; is it an API description?", source)
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", source, err)
	}
	return &Document{T: doc, Version: version, Source: loc}, nil
}

// location turns a file path or URL into the URL the loader resolves
// relative $refs against.
func location(source string) (*url.URL, error) {
	if strings.HasPrefix(source, "http://") || strings.HasPrefix(source, "https://") {
		return url.Parse(source)
	}
	abs, err := filepath.Abs(source)
	if err != nil {
		return nil, err
	}
	return &url.URL{Path: filepath.ToSlash(abs)}, nil
}

func readCapped(r io.Reader, loc *url.URL) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxDocument+1))
	if err == nil && len(data) > maxDocument {
		err = fmt.Errorf("%s is larger than %d MiB", loc, maxDocument>>20)
	}
	return data, err
}

// declared returns the version a document declares (`openapi` or
// `swagger`), from the nodes of a JSON document or by parsing YAML.
// It also counts the document's operations, refusing more than max
// before anything is resolved or converted.
func declared(data []byte, node *yaml.Node, max int) (string, error) {
	if node == nil {
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil {
			return "", err
		}
		node = &doc
	}
	var openapi, swagger string
	if len(node.Content) > 0 && node.Content[0].Kind == yaml.MappingNode {
		top := node.Content[0]
		for i := 0; i+1 < len(top.Content); i += 2 {
			switch k, v := top.Content[i].Value, top.Content[i+1]; {
			case k == "openapi" && v.Kind == yaml.ScalarNode:
				openapi = v.Value
			case k == "swagger" && v.Kind == yaml.ScalarNode:
				swagger = v.Value
			case k == "paths" && max > 0:
				if n := countOperations(v); n > max {
					return "", fmt.Errorf("%d operations, more than %d (--max-operations): one config of them would be larger than mcpgen loads and than a model can choose from; "+
						"import a part of the API from a description cut to it, or raise --max-operations", n, max)
				}
			}
		}
	}
	return cmp.Or(swagger, openapi), nil
}

// countOperations counts the operations of a paths object.
func countOperations(paths *yaml.Node) int {
	n := 0
	for i := 1; i < len(paths.Content); i += 2 {
		item := paths.Content[i]
		for j := 0; j+1 < len(item.Content); j += 2 {
			switch strings.ToLower(item.Content[j].Value) {
			case "get", "put", "post", "delete", "options", "head", "patch", "trace", "query":
				n++
			}
		}
	}
	return n
}

func isJSON(data []byte) bool {
	return bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n\ufeff"), []byte("{"))
}

// loadV3 decodes an OpenAPI 3 document and resolves its $refs. A JSON
// document, given as nodes, is decoded from them (see jsonNode).
func loadV3(loader *openapi3.Loader, data []byte, node *yaml.Node, loc *url.URL) (*openapi3.T, error) {
	if node == nil {
		return loader.LoadFromDataWithPath(data, loc)
	}
	doc := &openapi3.T{}
	if err := node.Decode(doc); err != nil {
		return nil, err
	}
	if err := loader.ResolveRefsIn(doc, loc); err != nil {
		return nil, err
	}
	return doc, nil
}

// loadV2 decodes a Swagger 2.0 document and converts it to OpenAPI 3.
func loadV2(loader *openapi3.Loader, data []byte, loc *url.URL) (*openapi3.T, error) {
	if !isJSON(data) {
		var v any
		if err := yaml.Unmarshal(data, &v); err != nil {
			return nil, err
		}
		var err error
		if data, err = json.Marshal(stringKeys(v)); err != nil {
			return nil, err
		}
	}
	var doc2 openapi2.T
	if err := json.Unmarshal(data, &doc2); err != nil {
		return nil, err
	}
	return openapi2conv.ToV3WithLoader(&doc2, loader, loc)
}

// stringKeys makes the maps YAML decoded with non-string keys (`200:` in
// responses) encodable as JSON.
func stringKeys(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = stringKeys(e)
		}
	case map[any]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[fmt.Sprint(k)] = stringKeys(e)
		}
		return m
	case []any:
		for i, e := range v {
			v[i] = stringKeys(e)
		}
	}
	return v
}
