package runtime

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/content"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/jsonrpc"
	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load/regfile"
	"github.com/mcpgen/mcpgen/runtime/plan"
)

// What happens on resources/read: the go-sdk finds the resource or the
// template that matches the URI; read binds the template's variables and
// produces the contents from text, a file below the resource's root, a
// handler or fixed bytes, then masks credentials in them.

// read answers resources/read: the contents of the requested URI, which
// matched res, after the resource's steps (which ask the client, by a
// request or, at 2026-07-28, by an InputRequiredResult).
func (s *Server) read(ctx context.Context, res *plan.Resource, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	args, ok := res.URIArgs(uri)
	if !ok {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	rc := &mcp.ResourceContents{URI: uri, MIMEType: res.MimeType, Meta: res.Meta}
	data := map[string]any{"args": args}
	if len(res.Steps) > 0 {
		asked, state, err := s.askSteps(ctx, "resource", uri, res.Steps, req.Session, req.ProtocolVersion(),
			req.ClientCapabilities(), req.Params.InputResponses, req.Params.RequestState, args, data)
		if asked != nil { // an interim result: no caching hint
			return s.plan.Mask.ReadResult(&mcp.ReadResourceResult{InputRequests: asked, RequestState: state}), nil
		}
		if err != nil {
			return nil, err
		}
	}
	var err error
	switch {
	case res.Text != nil:
		rc.Text, err = res.Text.Execute(data)
	case res.File != nil:
		err = s.readFile(res, data, rc)
	case res.Handler != nil:
		steps, _ := data["steps"].(map[string]any)
		err = s.readHandler(ctx, res, args, steps, rc)
	case res.Skill != "": // a skill's file: the bytes its digest is of
		var isText bool
		if rc.MIMEType, isText = content.FileType(res.MimeType, uri, res.Blob); isText {
			rc.Text = string(res.Blob)
		} else {
			rc.Blob = res.Blob
		}
	default:
		rc.Blob = res.Blob
	}
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: s.plan.Redact.Apply(err.Error())}
	}
	out := &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{rc}}
	res.Cache.Apply(&out.Cacheable)
	if len(res.Steps) > 0 { // the answers of this caller: never cached (caching.mdx)
		out.Cacheable = mcp.Cacheable{TTLMs: 0, CacheScope: "private"}
	}
	return s.plan.Mask.ReadResult(out), nil
}

// readFile reads a file confined to the resource's root: os.Root refuses
// paths that leave it by "..", an absolute path or a symbolic link.
func (s *Server) readFile(res *plan.Resource, data map[string]any, rc *mcp.ResourceContents) error {
	name, err := res.File.Execute(data)
	if err != nil {
		return err
	}
	if !filepath.IsLocal(name) {
		return fmt.Errorf("%q is outside the resource root", name)
	}
	root, err := os.OpenRoot(res.Root)
	if err != nil {
		return err
	}
	defer root.Close()
	body, err := regfile.ReadIn(root, name, MaxResourceSize)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return err
	case errors.Is(err, regfile.ErrNotRegular):
		return fmt.Errorf("%q is not a file: %w", name, fs.ErrNotExist)
	case errors.Is(err, regfile.ErrTooLarge):
		return fmt.Errorf("%q is larger than %d bytes", name, MaxResourceSize)
	case errors.Is(err, regfile.ErrWouldBlock):
		return fmt.Errorf("cannot read %q: %w", name, err)
	case err != nil:
		return fmt.Errorf("cannot read %q: outside the resource root or unreadable", name)
	}
	var isText bool
	rc.MIMEType, isText = content.FileType(rc.MIMEType, name, body)
	if isText {
		rc.Text = string(body)
	} else {
		rc.Blob = body
	}
	return nil
}

// readHandler reads through a backend: a structured result becomes JSON
// text, text content text, binary content a blob.
func (s *Server) readHandler(ctx context.Context, res *plan.Resource, args, steps map[string]any, rc *mcp.ResourceContents) error {
	out, err := res.Handler.Call(ctx, &handlers.Call{Args: args, Notify: handlers.Nop{}, Steps: steps})
	if err != nil {
		return err
	}
	if out.IsError {
		return errors.New(out.Text())
	}
	if out.Structured != nil {
		rc.Text = eval.Format(out.Structured)
		if rc.MIMEType == "" {
			rc.MIMEType = "application/json"
		}
		return nil
	}
	for _, c := range out.Content {
		switch c.Kind {
		case handlers.KindText:
			rc.Text += c.Text
		case handlers.KindImage, handlers.KindAudio:
			rc.Blob, rc.MIMEType = c.Data, c.MIMEType
		case handlers.KindResource:
			rc.Text, rc.Blob, rc.MIMEType = c.Text, c.Data, c.MIMEType
		}
	}
	return nil
}

func contentText(cs []mcp.Content) string {
	var parts []string
	for _, c := range cs {
		if t, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}
