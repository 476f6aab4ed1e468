package httpkind

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/handlers/httpkind/apierror"
	"github.com/mcpgen/mcpgen/handlers/httpkind/errcheck"
	"github.com/mcpgen/mcpgen/runtime/eval"
	"github.com/mcpgen/mcpgen/templates"
)

// statusRange is an inclusive range of status codes.
type statusRange struct{ lo, hi int }

var statusRE = regexp.MustCompile(`^([1-5])xx$|^([1-5][0-9][0-9])(?:\s*-\s*([1-5][0-9][0-9]))?$`)

// parseStatuses reads codes (404), ranges (400-499) and classes (4xx).
func parseStatuses(env handlers.BuildEnv, field string, list []string) []statusRange {
	var out []statusRange
	for i, s := range list {
		m := statusRE.FindStringSubmatch(strings.ToLower(strings.TrimSpace(s)))
		if m == nil {
			env.Diag(fmt.Sprintf("%s[%d]", field, i), fmt.Sprintf("invalid status %q; use a code (404), a range (400-499) or a class (4xx)", s))
			continue
		}
		if m[1] != "" {
			c, _ := strconv.Atoi(m[1])
			out = append(out, statusRange{c * 100, c*100 + 99})
			continue
		}
		lo, _ := strconv.Atoi(m[2])
		hi := lo
		if m[3] != "" {
			hi, _ = strconv.Atoi(m[3])
		}
		if hi < lo {
			env.Diag(fmt.Sprintf("%s[%d]", field, i), fmt.Sprintf("empty range %q", s))
		}
		out = append(out, statusRange{lo, hi})
	}
	return out
}

func matchStatus(rs []statusRange, status int) bool {
	for _, r := range rs {
		if status >= r.lo && status <= r.hi {
			return true
		}
	}
	return false
}

// errorRule is a compiled ErrorRule.
type errorRule struct {
	status  []statusRange
	when    *eval.Value
	message *templates.Template
	field   string       // errors[i], for the log
	log     *slog.Logger // operators' log, where a message that fails to render goes
}

func compileRule(env handlers.BuildEnv, field string, r *ErrorRule) *errorRule {
	if r == nil {
		env.Diag(field, "empty error rule")
		return &errorRule{}
	}
	rule := &errorRule{status: parseStatuses(env, field+".status", r.Status),
		message: env.Template(field+".message", r.Message, "response"), field: field, log: env.Logger()}
	if !r.When.IsZero() {
		rule.when = env.Compile(field+".when", &r.When, responseVars)
	}
	checkReads(env, field, r, rule)
	return rule
}

// checkReads reports what the rule's message and when read of the
// response that cannot be there, or may not be (errcheck).
func checkReads(env handlers.BuildEnv, field string, r *ErrorRule, rule *errorRule) {
	var body map[string]any
	if !r.BodySchema.IsZero() {
		if err := r.BodySchema.Node.Decode(&body); err != nil || body == nil {
			env.Diag(field+".body_schema", "body_schema is a JSON Schema: a mapping such as {type: object, properties: {message: {type: string}}}")
			return
		}
	}
	if rule.message != nil {
		report(env, field+".message", errcheck.Message(r.Message, body))
	}
	if rule.when != nil {
		report(env, field+".when", errcheck.When(rule.when.Reads("response"), body))
	}
}

func report(env handlers.BuildEnv, field string, found []errcheck.Finding) {
	for _, f := range found {
		if f.Warning {
			handlers.WarnAt(env, field, f.Off, f.Msg)
		} else {
			env.DiagAt(field, f.Off, f.Msg)
		}
	}
}

// match reports whether the rule applies to a response.
func (r *errorRule) match(status int, vars map[string]any) bool {
	if len(r.status) > 0 && !matchStatus(r.status, status) {
		return false
	}
	if r.when == nil {
		return true
	}
	x, err := r.when.Eval(vars)
	b, ok := x.(bool)
	return err == nil && ok && b // an error means a body of another shape: not this rule's case
}

// check applies the error rules, then the success statuses, to a response.
func (h *handler) check(resp *response, vars map[string]any) error {
	for _, r := range h.errors {
		if r.match(resp.status, vars) {
			msg, err := r.message.Execute(vars)
			if err == nil {
				return &apiError{msg: msg}
			}
			// the API's own message serves the model better than the
			// template's failure, which is the config's to fix
			if r.log != nil {
				r.log.Warn("an error rule's message did not render; the API's error is returned",
					"rule", r.field, "error", h.scrub(err.Error()))
			}
			return &apiError{msg: h.defaultError(resp, vars)}
		}
	}
	if matchStatus(h.success, resp.status) {
		return nil
	}
	if resp.status/100 == 3 && resp.header.Get("Location") != "" {
		// same-host redirects were followed already: this one leaves the host
		return &apiError{msg: fmt.Sprintf("HTTP %d: the API redirected to %s; redirects to another host are not followed",
			resp.status, redirectHost(resp))}
	}
	return &apiError{msg: h.defaultError(resp, vars)}
}

// apiError is an error the API reported.
type apiError struct{ msg string }

func (e *apiError) Error() string { return e.msg }

func redirectHost(resp *response) string {
	loc, err := resp.url.Parse(resp.header.Get("Location"))
	if err != nil || loc.Host == "" {
		return "another location"
	}
	return loc.Scheme + "://" + loc.Host
}

// defaultError summarises an unsuccessful response: its status and the
// gist of its body, never the whole body.
func (h *handler) defaultError(resp *response, vars map[string]any) string {
	msg := fmt.Sprintf("HTTP %d %s", resp.status, http.StatusText(resp.status))
	body := vars["response"].(map[string]any)["body"]
	if s := summarize(body); s != "" {
		msg += ": " + s
	}
	if resp.status == http.StatusTooManyRequests {
		if d, ok := retryAfter(resp.header.Get("Retry-After"), time.Now()); ok {
			msg += fmt.Sprintf(" (rate limited; retry after %v)", d.Round(1e9))
		}
	}
	return msg
}

// maxSummary bounds the part of an upstream error body shown to the model;
// maxDetailed, a JSON error's message with its field errors.
const (
	maxSummary  = 300
	maxDetailed = 800
)

var (
	tagRE   = regexp.MustCompile(`(?s)<(script|style)[^>]*>.*?</(script|style)>|<[^>]*>`)
	spaceRE = regexp.MustCompile(`\s+`)
)

// summarize picks the message out of an error body: the usual fields of a
// JSON error, or the text of anything else, short.
func summarize(body any) string {
	switch b := body.(type) {
	case nil:
		return ""
	case string:
		return clip(spaceRE.ReplaceAllString(tagRE.ReplaceAllString(b, " "), " "))
	case map[string]any:
		if s := apierror.Summary(b); s != "" {
			return clipTo(s, maxDetailed)
		}
	}
	data, _ := json.Marshal(body)
	return clip(string(data))
}

func summarizeBytes(body []byte) string {
	var x any
	if json.Unmarshal(body, &x) == nil {
		return summarize(x)
	}
	return summarize(string(body))
}

func clip(s string) string { return clipTo(s, maxSummary) }

func clipTo(s string, limit int) string {
	s = strings.TrimSpace(s)
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + "… (truncated)"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }
