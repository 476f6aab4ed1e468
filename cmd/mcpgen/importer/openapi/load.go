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
	"net/http"
	"net/url"
	"os"
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

// Load reads the description at source, a file path or an http(s) URL, and
// resolves its $refs, to other files and URLs too.
func Load(ctx context.Context, source string) (*Document, error) {
	loc, err := location(source)
	if err != nil {
		return nil, err
	}
	loader := openapi3.NewLoader()
	loader.Context = ctx
	loader.IsExternalRefsAllowed = true
	loader.ReadFromURIFunc = read
	data, err := read(loader, loc)
	if err != nil {
		return nil, err
	}
	var node *yaml.Node // the JSON document as nodes, read once
	if isJSON(data) {
		if node, err = jsonNode(data); err != nil {
			return nil, fmt.Errorf("reading %s: %w", source, err)
		}
	}
	version, err := declared(data, node)
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

// read reads a document or a referenced file: from disk, or over HTTP with
// the loader's context.
func read(loader *openapi3.Loader, loc *url.URL) ([]byte, error) {
	if loc.Scheme == "" || loc.Scheme == "file" {
		f, err := os.Open(filepath.FromSlash(loc.Path))
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return readCapped(f, loc)
	}
	if loc.Scheme != "http" && loc.Scheme != "https" {
		return nil, fmt.Errorf("%s: only files and http(s) URLs can be read", loc)
	}
	req, err := http.NewRequestWithContext(loader.Context, http.MethodGet, loc.String(), nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", loc, resp.Status)
	}
	return readCapped(resp.Body, loc)
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
func declared(data []byte, node *yaml.Node) (string, error) {
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
			}
		}
	}
	return cmp.Or(swagger, openapi), nil
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
