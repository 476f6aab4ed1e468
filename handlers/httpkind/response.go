package httpkind

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"mime"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/spec"
	sjson "github.com/segmentio/encoding/json"
)

// bodyKind is how a response body is read.
type bodyKind int

const (
	kindText bodyKind = iota
	kindJSON
	kindBinary
)

// parsed is a response with its body decoded.
type parsed struct {
	*response
	mediaType string
	kind      bodyKind
	body      any // JSON value, text, or nil for binary
}

// parse decodes a body by its content type: JSON (when it parses), text
// (made valid UTF-8), or binary.
func parse(resp *response) *parsed {
	p := &parsed{response: resp}
	ctype := resp.header.Get("Content-Type")
	if ctype == "" && len(resp.body) > 0 {
		ctype = http.DetectContentType(resp.body)
	}
	mt, params := mediaType(ctype)
	p.mediaType = mt
	switch {
	case isJSON(mt) && !resp.truncated:
		if v, err := decodeJSON(resp.body); err == nil {
			p.kind, p.body = kindJSON, v
			return p
		}
		p.body = toText(resp.body, params["charset"])
	case isTextual(mt) || mt == "" && utf8.Valid(resp.body):
		if v, ok := sniffJSON(resp); ok && (mt == "" || mt == "text/plain") {
			p.kind, p.body = kindJSON, v // JSON sent as text, or without a type
			return p
		}
		p.body = toText(resp.body, params["charset"])
	default:
		p.kind = kindBinary
	}
	return p
}

// sniffJSON decodes a body that looks like a JSON object or array.
func sniffJSON(resp *response) (any, bool) {
	b := bytes.TrimLeft(resp.body, " \t\r\n")
	if resp.truncated || len(b) == 0 || (b[0] != '{' && b[0] != '[') {
		return nil, false
	}
	v, err := decodeJSON(b)
	return v, err == nil
}

// mediaType parses a Content-Type, quickly for the usual JSON ones.
func mediaType(ctype string) (string, map[string]string) {
	switch ctype {
	case "application/json", "application/json; charset=utf-8", "application/json;charset=utf-8":
		return "application/json", nil
	}
	mt, params, _ := mime.ParseMediaType(ctype)
	return mt, params
}

func isJSON(mt string) bool { return mt == "application/json" || strings.HasSuffix(mt, "+json") }

func isTextual(mt string) bool {
	return strings.HasPrefix(mt, "text/") || isJSON(mt) || strings.HasSuffix(mt, "+xml") ||
		mt == "application/xml" || mt == "application/yaml" || mt == "application/javascript" ||
		mt == "application/x-www-form-urlencoded"
}

// toText makes a body valid UTF-8: Latin-1 is converted, any other invalid
// byte becomes U+FFFD.
func toText(b []byte, charset string) string {
	switch strings.ToLower(charset) {
	case "iso-8859-1", "latin1", "latin-1", "windows-1252":
		if !utf8.Valid(b) {
			r := make([]rune, len(b))
			for i, c := range b {
				r[i] = rune(c)
			}
			return string(r)
		}
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// decodeJSON decodes one JSON value; whole numbers become int64, the rest
// float64, as arguments are. segmentio's decoder does this in one pass, at
// about twice the speed of encoding/json (which needs UseNumber and a walk).
func decodeJSON(b []byte) (any, error) {
	var v any
	rest, err := sjson.Parse(b, &v, sjson.UseInt64)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(rest)) > 0 {
		return nil, errors.New("more than one JSON value")
	}
	return v, nil
}

// responseVar is `response` as expressions and templates see it.
// Headers are left out when no expression or template can read them.
func (p *parsed) responseVar(headers bool) map[string]any {
	var hdr map[string]any
	if headers {
		hdr = make(map[string]any, len(p.header))
		for k, v := range p.header {
			if len(v) > 0 {
				hdr[strings.ToLower(k)] = v[0]
			}
		}
	}
	return map[string]any{"status": int64(p.status), "headers": hdr, "body": p.body}
}

// respond checks a response and renders it as a result.
func (h *handler) respond(vars map[string]any, resp *response) (*handlers.Result, error) {
	p := parse(resp)
	vars["response"] = p.responseVar(h.readsResponse)
	if err := h.check(resp, vars); err != nil {
		return nil, err
	}
	if p.kind == kindBinary {
		return h.binary(p)
	}
	if resp.truncated {
		return h.truncated(p), nil
	}
	result, err := h.extract(p, vars)
	if err != nil {
		return nil, err
	}
	if h.page != nil && !h.page.follow {
		if result, err = h.page.cursor(result, vars, resp); err != nil {
			return nil, err
		}
		return h.render(vars, result, nil)
	}
	if _, isObject := result.(map[string]any); isObject && h.result == nil && utf8.Valid(resp.body) {
		return h.render(vars, result, resp.body) // the body as the API wrote it
	}
	return h.render(vars, result, nil)
}

// extract evaluates the result expression; without one, a JSON body is
// the result and text has none.
func (h *handler) extract(p *parsed, vars map[string]any) (any, error) {
	if h.result != nil {
		x, err := h.result.Eval(vars)
		if err != nil {
			return nil, fmt.Errorf("result: %w", err)
		}
		return x, nil
	}
	if p.kind == kindJSON {
		return p.body, nil
	}
	return nil, nil
}

// render makes the result: structured content when there is a result, and
// its text (the template, the JSON of the result, or the text body). raw,
// when set, is the result as JSON: indenting it keeps the API's key order
// and costs less than encoding the result again.
func (h *handler) render(vars map[string]any, result any, raw []byte) (*handlers.Result, error) {
	res := &handlers.Result{}
	if result != nil {
		res.Structured = handlers.Object(result)
	}
	if len(h.fields) > 0 && isStructured(result) {
		fields, err := h.addFields(handlers.Object(result), vars)
		if err != nil {
			return nil, err
		}
		res.Structured, raw = fields, nil
	}
	vars["result"] = res.Structured
	var text string
	switch {
	case h.text != nil:
		t, err := h.text.Execute(vars)
		if err != nil {
			return nil, err
		}
		text = t
	case raw != nil:
		text = string(indentJSON(make([]byte, 0, len(raw)*3/2), raw))
	case res.Structured != nil:
		data, err := json.MarshalIndent(res.Structured, "", "  ")
		if err != nil {
			return nil, fmt.Errorf("result: %w", err)
		}
		text = string(data)
	default:
		text, _ = vars["response"].(map[string]any)["body"].(string)
		if text == "" {
			// say so, rather than leave the model an empty answer
			status := vars["response"].(map[string]any)["status"].(int64)
			text = fmt.Sprintf("HTTP %d %s (no content)", status, http.StatusText(int(status)))
		}
	}
	res.Content = []handlers.Content{{Text: text}}
	return res, nil
}

// truncated renders the first max_response bytes of a text or JSON body
// with a note saying the rest was dropped.
func (h *handler) truncated(p *parsed) *handlers.Result {
	text, _ := p.body.(string)
	note := fmt.Sprintf("[truncated: the response is larger than %s; only the first %s were read]",
		spec.Size(h.lim.maxResponse), spec.Size(h.lim.maxResponse))
	return &handlers.Result{Content: []handlers.Content{{Text: text}, {Text: note}}}
}

// binary renders images and audio as such, anything else as an embedded
// resource blob.
func (h *handler) binary(p *parsed) (*handlers.Result, error) {
	if p.truncated {
		return nil, fmt.Errorf("the response (%s) is larger than %s and was truncated; raise max_response to read it",
			p.mediaType, spec.Size(h.lim.maxResponse))
	}
	c := handlers.Content{Data: p.response.body, MIMEType: p.mediaType}
	switch {
	case strings.HasPrefix(p.mediaType, "image/"):
		c.Kind = handlers.KindImage
	case strings.HasPrefix(p.mediaType, "audio/"):
		c.Kind = handlers.KindAudio
	default:
		u := *p.url
		u.RawQuery = "" // it may hold an API key
		c.Kind, c.URI, c.MIMEType = handlers.KindResource, u.String(), cmp.Or(p.mediaType, "application/octet-stream")
	}
	return &handlers.Result{Content: []handlers.Content{c}}, nil
}

// isStructured reports whether a result is JSON structure (an object or a
// list), to which result_fields apply.
func isStructured(x any) bool {
	switch x.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

// addFields returns a copy of obj with result_fields set.
func (h *handler) addFields(obj map[string]any, vars map[string]any) (map[string]any, error) {
	out := maps.Clone(obj)
	for _, f := range h.fields {
		x, err := f.val.Eval(vars)
		if err != nil {
			return nil, fmt.Errorf("result_fields.%s: %w", f.name, err)
		}
		if x != nil {
			out[f.name] = x
		}
	}
	return out, nil
}
