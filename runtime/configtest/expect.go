package configtest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
)

// maxShown bounds how much of a text a failure quotes.
const maxShown = 2000

// check compares out with the case's expectations.
func (cr *caseRun) check(out *outcome) {
	e := &cr.c.Expect
	wantErr := e.IsError != nil && *e.IsError
	if out.isError != wantErr {
		at := []string{"expect", "is_error"}
		if e.IsError == nil {
			at = []string{"name"}
		}
		what := map[bool]string{true: "an error", false: "no error"}
		cr.fail(at, ".expect.is_error", fmt.Sprintf("want %s, got %s: %s", what[wantErr], what[out.isError], quote(out.text)))
	}
	if e.Text != nil {
		cr.checkText(e.Text, out.text)
	}
	cr.checkJSON(e.JSON, out)
	out.mu.Lock()
	defer out.mu.Unlock()
	for j, l := range e.Logs {
		if l != nil && !slices.ContainsFunc(out.logs, l.matches) {
			cr.fail([]string{"expect", "logs", strconv.Itoa(j)}, fmt.Sprintf(".expect.logs[%d]", j),
				fmt.Sprintf("no %s log message containing %q among %d: %s", cmpOr(l.Level, "any"), l.Contains, len(out.logs), logsText(out.logs)))
		}
	}
	if out.progress < e.Progress {
		cr.fail([]string{"expect", "progress"}, ".expect.progress",
			fmt.Sprintf("want at least %d progress notifications, got %d", e.Progress, out.progress))
	}
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func (l *LogMatch) matches(p *mcp.LoggingMessageParams) bool {
	if l.Level != "" && string(p.Level) != l.Level {
		return false
	}
	return strings.Contains(logText(p), l.Contains)
}

func logText(p *mcp.LoggingMessageParams) string {
	if s, ok := p.Data.(string); ok {
		return s
	}
	b, _ := json.Marshal(p.Data)
	return string(b)
}

func logsText(logs []*mcp.LoggingMessageParams) string {
	var parts []string
	for _, p := range logs {
		parts = append(parts, fmt.Sprintf("[%s] %s", p.Level, logText(p)))
	}
	return quote(strings.Join(parts, "; "))
}

func (cr *caseRun) checkText(t *TextMatch, text string) {
	at := func(k string) []string { return []string{"expect", "text", k} }
	if t.Equals != nil && strings.TrimRight(text, "\n") != strings.TrimRight(*t.Equals, "\n") {
		cr.fail(at("equals"), ".expect.text.equals", "the text differs: got "+quote(text))
	}
	if t.Contains != "" && !strings.Contains(text, t.Contains) {
		cr.fail(at("contains"), ".expect.text.contains", fmt.Sprintf("%q not found in %s", t.Contains, quote(text)))
	}
	if t.NotContains != "" && strings.Contains(text, t.NotContains) {
		cr.fail(at("not_contains"), ".expect.text.not_contains", fmt.Sprintf("%q found in %s", t.NotContains, quote(text)))
	}
	if t.Matches != "" {
		if re, err := regexp.Compile(t.Matches); err == nil && !re.MatchString(text) {
			cr.fail(at("matches"), ".expect.text.matches", fmt.Sprintf("/%s/ does not match %s", t.Matches, quote(text)))
		}
	}
}

func quote(s string) string {
	if len(s) > maxShown {
		s = s[:maxShown] + "…"
	}
	return strconv.Quote(s)
}

// checkJSON compares values at paths of the structured content, or of the
// text read as JSON.
func (cr *caseRun) checkJSON(want map[string]any, out *outcome) {
	if len(want) == 0 {
		return
	}
	doc := out.structured
	if doc == nil {
		if err := json.Unmarshal([]byte(out.text), &doc); err != nil {
			cr.fail([]string{"expect", "json"}, ".expect.json", "the result has no structured content and its text is not JSON: "+quote(out.text))
			return
		}
	}
	doc = normalize(doc)
	for _, path := range sortedKeys(want) {
		at := []string{"expect", "json", path}
		got, err := lookup(doc, path)
		if err != nil {
			cr.fail(at, ".expect.json."+path, err.Error())
			continue
		}
		if w := normalize(want[path]); !reflect.DeepEqual(w, got) {
			cr.fail(at, ".expect.json."+path, fmt.Sprintf("want %s, got %s", jsonText(w), jsonText(got)))
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// normalize gives v the types JSON decoding gives: float64 numbers,
// map[string]any objects, []any arrays.
func normalize(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// pathRE splits a path into names and [index] parts.
var pathRE = regexp.MustCompile(`[^.\[\]]+|\[\d+\]`)

// lookup finds the value at a path such as items[0].name (or $.items[0].name).
func lookup(doc any, path string) (any, error) {
	p := strings.TrimPrefix(strings.TrimPrefix(path, "$"), ".")
	cur, walked := doc, "$"
	for _, part := range pathRE.FindAllString(p, -1) {
		if i, ok := strings.CutPrefix(part, "["); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(i, "]"))
			arr, isArr := cur.([]any)
			if !isArr || n >= len(arr) {
				return nil, fmt.Errorf("%s has no element %s (it is %s)", walked, part, shape(cur))
			}
			cur, walked = arr[n], walked+part
			continue
		}
		obj, isObj := cur.(map[string]any)
		v, found := obj[part]
		if !isObj || !found {
			return nil, fmt.Errorf("%s has no key %q (it is %s)", walked, part, shape(cur))
		}
		cur, walked = v, walked+"."+part
	}
	return cur, nil
}

// shape describes a JSON value briefly.
func shape(v any) string {
	switch v := v.(type) {
	case map[string]any:
		return fmt.Sprintf("an object with keys %v", sortedKeys(v))
	case []any:
		return fmt.Sprintf("an array of %d", len(v))
	}
	return jsonText(v)
}

// afterCall fails the case for requests no exchange answered and stubs no
// command used; it reports whether every request was answered.
func (cr *caseRun) afterCall(t *replayer, st *stubs) bool {
	misses := t.missed()
	for _, miss := range misses {
		cr.fail([]string{"name"}, "", miss)
	}
	cr.r.recorded = t.recordedExchanges()
	for _, i := range st.unused() {
		cr.fail([]string{"stubs", strconv.Itoa(i)}, fmt.Sprintf(".stubs[%d]", i),
			fmt.Sprintf("no command ran that the stub of %q replaces", cmpOr(st.list[i].Command, "every command"))+
				"; a stub replaces a command's program, a script's shell, or a command a script runs by a name "+
				"of letters, digits and _ (as a shell function: not through exec, command, env or xargs)")
	}
	return len(misses) == 0
}
