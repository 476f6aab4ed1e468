package httpkind

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/textproto"
	"net/url"
	"strings"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/eval"
)

// bodyBuilder is a compiled request body.
type bodyBuilder struct {
	kind  string // json, form, multipart, raw
	ctype string
	value *eval.Value // json, raw
	form  []param
	parts []*part
}

type part struct {
	name, ctype   string
	filename, val *eval.Value
}

func (h *handler) compileBody(env handlers.BuildEnv, b *Body) *bodyBuilder {
	// the loader checked that exactly one of json, form, multipart and raw is given
	bb := &bodyBuilder{ctype: b.ContentType}
	switch {
	case !b.JSON.IsZero():
		bb.kind, bb.value = "json", env.Compile("body.json", &b.JSON, requestVars)
	case !b.Raw.IsZero():
		bb.kind, bb.value = "raw", env.Compile("body.raw", &b.Raw, requestVars)
	case b.Form != nil:
		bb.kind, bb.form = "form", compileParams(env, "body.form", b.Form, requestVars)
	default:
		bb.kind = "multipart"
		for i, p := range b.Multipart {
			f := fmt.Sprintf("body.multipart[%d]", i)
			bb.parts = append(bb.parts, &part{name: p.Name, ctype: p.ContentType,
				val: env.Compile(f+".value", &p.Value, requestVars), filename: env.Compile(f+".filename", &p.Filename, requestVars)})
		}
	}
	if bb.ctype != "" && bb.kind == "multipart" {
		env.Diag("body.content_type", "a multipart body sets its own content type (with its boundary)")
	}
	return bb
}

// build evaluates the body, returning its content type and bytes.
func (bb *bodyBuilder) build(vars map[string]any) (string, []byte, error) {
	switch bb.kind {
	case "json":
		x, err := bb.value.Eval(vars)
		if err != nil {
			return "", nil, err
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false) // "<" stays "<": the body is for an API, not a web page
		err = enc.Encode(x)
		return cmp.Or(bb.ctype, "application/json"), bytes.TrimSuffix(buf.Bytes(), []byte("\n")), err
	case "raw":
		s, err := bb.value.String(vars, nil)
		return cmp.Or(bb.ctype, "text/plain; charset=utf-8"), []byte(s), err
	case "form":
		q := url.Values{}
		for _, p := range bb.form {
			x, err := p.val.Eval(vars)
			if err != nil {
				return "", nil, fmt.Errorf("field %s: %w", p.name, err)
			}
			addValue(q, p.name, x, "repeat")
		}
		return cmp.Or(bb.ctype, "application/x-www-form-urlencoded"), []byte(q.Encode()), nil
	}
	return bb.multipart(vars)
}

func (bb *bodyBuilder) multipart(vars map[string]any) (string, []byte, error) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, p := range bb.parts {
		x, err := p.val.Eval(vars)
		if err != nil {
			return "", nil, fmt.Errorf("part %s: %w", p.name, err)
		}
		if x == nil {
			continue
		}
		filename, err := p.filename.String(vars, nil)
		if err != nil {
			return "", nil, fmt.Errorf("part %s: %w", p.name, err)
		}
		hdr := textproto.MIMEHeader{}
		disp := "form-data; name=" + quote(p.name)
		if filename != "" {
			disp += "; filename=" + quote(filename)
		}
		hdr.Set("Content-Disposition", disp)
		ctype := p.ctype
		if ctype == "" {
			ctype = "text/plain; charset=utf-8"
			if filename != "" {
				ctype = "application/octet-stream"
			}
		}
		hdr.Set("Content-Type", ctype)
		pw, err := w.CreatePart(hdr)
		if err != nil {
			return "", nil, err
		}
		if _, err := pw.Write([]byte(eval.Format(x))); err != nil {
			return "", nil, err
		}
	}
	if err := w.Close(); err != nil {
		return "", nil, err
	}
	return w.FormDataContentType(), buf.Bytes(), nil
}

var quoteEscaper = strings.NewReplacer("\\", "\\\\", `"`, "\\\"", "\r", "%0D", "\n", "%0A")

func quote(s string) string { return `"` + quoteEscaper.Replace(s) + `"` }
