package graphqlkind

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/mcpgen/mcpgen/handlers"
)

// maxErrors is how many GraphQL errors a message lists.
const maxErrors = 5

// respond reads the GraphQL response the http handler returned as
// {status, headers, body}: errors without data are an error result, data
// is the result, and data with errors (a partial result: the fields the
// errors name are null) is the result with a note listing the errors.
func (h *handler) respond(ctx context.Context, c *handlers.Call, res *handlers.Result) (*handlers.Result, error) {
	m, _ := res.Structured.(map[string]any)
	if m == nil { // a body too large, or not text
		if note := truncation(res); note != "" {
			return nil, h.fail("the GraphQL response %s; raise max_response or select fewer fields", note)
		}
		return nil, h.fail("the answer is not a GraphQL response: %s", clip(contentText(res)))
	}
	status, _ := m["status"].(int64)
	gr, _ := m["body"].(map[string]any)
	errs, _ := gr["errors"].([]any)
	data, hasData := gr["data"]
	switch {
	case gr == nil || !hasData && len(errs) == 0:
		if status/100 != 2 {
			return nil, h.fail("HTTP %d %s: %s", status, http.StatusText(int(status)), clip(summary(m["body"])))
		}
		return nil, h.fail("the answer is not a GraphQL response: %s", clip(summary(m["body"])))
	case len(errs) > 0 && allNull(data):
		msg := "GraphQL error: " + errorList(errs)
		if status/100 != 2 {
			msg = fmt.Sprintf("HTTP %d, %s", status, msg)
		}
		return nil, h.fail("%s", msg)
	case data == nil:
		return nil, h.fail("the GraphQL response holds no data")
	}
	result := data
	if h.result != nil {
		vars := c.Vars()
		vars["data"] = data
		x, err := h.result.Eval(vars)
		if err != nil {
			return nil, h.fail("result: %v", err)
		}
		result = x
	}
	out := &handlers.Result{Structured: handlers.Object(result)}
	if len(errs) > 0 {
		note := "GraphQL reported errors, and the fields they name are null: " + errorList(errs)
		c.Notify.Log(ctx, slog.LevelWarn, note, map[string]any{"errors": len(errs)})
		text, err := json.MarshalIndent(out.Structured, "", "  ")
		if err != nil {
			return nil, h.fail("result: %v", err)
		}
		out.Content = []handlers.Content{{Text: string(text)}, {Text: h.redact(note)}}
	}
	return out, nil
}

// allNull reports whether data holds nothing: null, or only null fields
// (every top-level field failed).
func allNull(data any) bool {
	m, ok := data.(map[string]any)
	if !ok {
		return data == nil
	}
	for _, v := range m {
		if v != nil {
			return false
		}
	}
	return true
}

// truncation returns the http kind's note on a truncated body, as "was
// truncated: ...", or "".
func truncation(res *handlers.Result) string {
	for _, c := range res.Content {
		if c.Kind == handlers.KindText && strings.HasPrefix(c.Text, "[truncated: ") {
			return "was truncated: " + strings.TrimSuffix(strings.TrimPrefix(c.Text, "[truncated: "), "]")
		}
	}
	return ""
}

// errorList writes GraphQL errors as "message (at a.b.0) [CODE]; ...".
func errorList(errs []any) string {
	var parts []string
	for i, e := range errs {
		if i == maxErrors {
			parts = append(parts, fmt.Sprintf("and %d more", len(errs)-maxErrors))
			break
		}
		parts = append(parts, oneError(e))
	}
	return strings.Join(parts, "; ")
}

func oneError(e any) string {
	m, ok := e.(map[string]any)
	if !ok {
		return clip(summary(e))
	}
	msg, _ := m["message"].(string)
	if msg == "" {
		msg = "(no message)"
	}
	s := clip(msg)
	if path, ok := m["path"].([]any); ok && len(path) > 0 {
		parts := make([]string, len(path))
		for i, p := range path {
			parts[i] = fmt.Sprint(p)
		}
		s += " (at " + strings.Join(parts, ".") + ")"
	}
	if ext, ok := m["extensions"].(map[string]any); ok {
		if code, ok := ext["code"].(string); ok && code != "" {
			s += " [" + code + "]"
		}
	}
	return s
}

// summary is a body as text.
func summary(body any) string {
	if s, ok := body.(string); ok {
		return strings.Join(strings.Fields(s), " ")
	}
	data, _ := json.Marshal(body)
	return string(data)
}

func contentText(res *handlers.Result) string {
	var parts []string
	for _, c := range res.Content {
		if c.Kind == handlers.KindText {
			parts = append(parts, c.Text)
		} else {
			parts = append(parts, "a binary body")
		}
	}
	return strings.Join(parts, " ")
}

// clip shortens text for a message.
func clip(s string) string {
	const max = 300
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && s[cut]&0xC0 == 0x80 { // not inside a character
		cut--
	}
	return s[:cut] + "…"
}
