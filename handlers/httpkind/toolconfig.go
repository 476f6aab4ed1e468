package httpkind

import "github.com/mcpgen/mcpgen/spec"

// Config is the handler of one tool or resource of kind http. With
// `backend: NAME` it uses that backend's connection; without, it gives its
// own `base_url` (and `auth`, `tls`).
type Config struct {
	Connection `yaml:",inline"`
	Limits     `yaml:",inline"`
	// Method of the request. Defaults to GET.
	Method string `yaml:"method,omitempty" jsonschema:"enum=GET,enum=HEAD,enum=POST,enum=PUT,enum=PATCH,enum=DELETE,enum=OPTIONS"`
	// Path appended to the base URL, e.g. /tickets/${{ args.id }}. Each
	// interpolated value is escaped as one path segment: a `/`, `?` or `..`
	// in an argument cannot reach another endpoint.
	Path spec.Value `yaml:"path,omitempty"`
	// Query parameters. A value that is a list sends one parameter per
	// element (see query_style); a value that evaluates to null is left out.
	Query map[string]spec.Value `yaml:"query,omitempty"`
	// QueryStyle is how lists are sent: repeat (`tag=a&tag=b`, the default),
	// indexed (`tag[0]=a&tag[1]=b`), brackets (`tag[]=a&tag[]=b`) or comma
	// (`tag=a,b`).
	QueryStyle string `yaml:"query_style,omitempty" jsonschema:"enum=repeat,enum=indexed,enum=brackets,enum=comma"`
	// Headers of the request, added to the backend's. A value holding a
	// carriage return or line feed is refused.
	Headers map[string]spec.Value `yaml:"headers,omitempty"`
	// ForwardHeaders names headers of the client's request to mcpgen copied
	// onto this tool's request, besides the backend's `forward_headers`;
	// see there.
	ForwardHeaders []string `yaml:"forward_headers,omitempty"`
	// Body of the request.
	Body *Body `yaml:"body,omitempty"`
	// MethodOverride sends the request as POST with an
	// X-HTTP-Method-Override header naming the real method, for APIs behind
	// proxies that only pass GET and POST.
	// Set it to false to turn off the backend's.
	MethodOverride *bool `yaml:"method_override,omitempty"`
	// Idempotent allows retries of a POST or PATCH: set it when the API
	// deduplicates repeated requests (an idempotency key, an upsert).
	Idempotent bool `yaml:"idempotent,omitempty"`
	// Revalidate keeps the last response of each GET request that carried
	// an ETag or Last-Modified header and asks again with If-None-Match (or
	// If-Modified-Since): when the API answers 304 Not Modified, the kept
	// response is the result, as if it had been sent again. Responses are
	// kept in memory, per request (its URL and headers, credentials
	// included, so never across callers), up to 256 of them and 16MiB per
	// tool. A request whose config sets If-None-Match or
	// If-Modified-Since itself is left alone.
	Revalidate *bool `yaml:"revalidate,omitempty"`
	// Success lists the statuses that count as success: codes (200), ranges
	// (200-299) or classes (2xx). Defaults to 2xx.
	Success []string `yaml:"success,omitempty"`
	// Errors are rules, tried in order, that turn a response into an error
	// result with a message of your own. Responses that match no rule and
	// are not a success become an error summarising the upstream body:
	// its status, its message and, for a JSON body that lists errors by
	// field (`{"message", "errors": [{"field", "code", "message"}]}`, RFC
	// 9457 problem details with `errors` or `invalid-params`), each field
	// with what is wrong with it. A rule whose message fails to render (a
	// body of another shape) gives that summary instead, and the template's
	// error goes to the server's log.
	Errors []*ErrorRule `yaml:"errors,omitempty"`
	// Result extracts the structured result from the response, e.g.
	// ${{ response.body.records }}. Expressions see `args` and `response`
	// (status, headers with lower-case names, body: parsed JSON or text).
	// Defaults to the JSON body. A result that is not an object is wrapped:
	// a list as {items: [...]}, anything else as {value: ...}.
	Result spec.Value `yaml:"result,omitempty"`
	// ResultFields adds fields to the structured result of every call,
	// beside the result's own (a list result is {items: [...]} first):
	// `{rate_limit_remaining: "${{ response.headers['x-ratelimit-remaining'] }}"}`.
	// They see `response` (the last page's when pages are followed) and
	// win over the result's fields of the same name; one that yields
	// nothing is left out. A backend's are added to every tool's, the
	// tool's own winning by name. A result that is text gets none.
	ResultFields map[string]spec.Value `yaml:"result_fields,omitempty"`
	// Text is a template rendering the result as text; it sees `.args`,
	// `.response` and `.result`. Defaults to the result as indented JSON.
	Text string `yaml:"text,omitempty"`
	// Pagination follows or exposes a paginated API.
	Pagination *Pagination `yaml:"pagination,omitempty"`
	// Poll follows an API that answers 202 Accepted and a Location to poll
	// until its job is done; run such a tool as a task (`task: optional`).
	Poll *Poll `yaml:"poll,omitempty"`
}

// Body is the request body: JSON, a form, multipart or raw bytes.
type Body struct {
	// JSON is a value sent as JSON. Expressions keep their types: numbers,
	// booleans, lists and objects stay what they are, and a key whose
	// expression yields null (an optional argument not passed) is left out.
	JSON spec.Value `yaml:"json,omitempty" mcpgen:"exactly_one=body"`
	// Form fields sent as application/x-www-form-urlencoded. A list value
	// repeats the field; a null value leaves it out.
	Form map[string]spec.Value `yaml:"form,omitempty" mcpgen:"exactly_one=body"`
	// Multipart parts sent as multipart/form-data, in order.
	Multipart []*Part `yaml:"multipart,omitempty" mcpgen:"exactly_one=body"`
	// Raw text sent as it is, with content_type.
	Raw spec.Value `yaml:"raw,omitempty" mcpgen:"exactly_one=body"`
	// ContentType of the body; defaults to text/plain for raw and to the
	// right type for the other kinds.
	ContentType string `yaml:"content_type,omitempty"`
}

// Part is one part of a multipart body.
type Part struct {
	// Name of the form field.
	Name string `yaml:"name" jsonschema:"required"`
	// Value of the part: text, or any value sent as JSON.
	Value spec.Value `yaml:"value" jsonschema:"required"`
	// Filename makes the part a file upload with this name; it may hold
	// ${{ expressions }}.
	Filename spec.Value `yaml:"filename,omitempty"`
	// ContentType of the part; defaults to text/plain, or
	// application/octet-stream for a file.
	ContentType string `yaml:"content_type,omitempty"`
}

// ErrorRule turns matching responses into an error result.
type ErrorRule struct {
	// Status the rule applies to: codes, ranges or classes (404, 400-499,
	// 5xx). Any status when omitted.
	Status []string `yaml:"status,omitempty"`
	// When is an expression over `args` and `response` that must be true
	// for the rule to apply, e.g. ${{ response.body?.code == "archived" }}.
	// An expression that fails on a response (a body of another shape) does
	// not match.
	When spec.Value `yaml:"when,omitempty"`
	// Message is a template (seeing `.args` and `.response`) telling the
	// model what went wrong and what to do, e.g. "ticket {{ .args.id }} is
	// archived; use search_archive".
	Message string `yaml:"message" jsonschema:"required"`
	// BodySchema is the JSON Schema of the error's body as the API
	// documents it, e.g. {type: object, properties: {message: {type:
	// string}, errors: {type: array}}}. validate then checks the keys the
	// message and `when` read below the response's body against it: a key
	// it cannot have (additionalProperties: false) or a field of an array
	// is an error, a key it does not declare a warning. Not used at run
	// time.
	BodySchema *spec.Value `yaml:"body_schema,omitempty"`
}

// Pagination reads paginated APIs.
type Pagination struct {
	// Mode is follow (fetch pages until there is no next one or max_pages is
	// reached, and return their items together) or cursor (return one page
	// and its `nextCursor`; the tool declares a `cursor` argument and maps it
	// into the request itself).
	Mode string `yaml:"mode" jsonschema:"required,enum=follow,enum=cursor"`
	// Next is an expression over `response` (and `args`, and `page`, the
	// page just read) giving the next page's cursor, or its URL when no
	// cursor_param, cursor_field or cursor_header is set and the request
	// does not read `page`. Null or empty ends the list; so does a cursor
	// equal to the last one or a page equal to the previous one, with a
	// note in the result.
	//
	// In follow mode the request's own expressions (path, query, headers,
	// body) may read `page.cursor` (what `next` gave; null for the first
	// page) and `page.number`: each page's request is then built again, so
	// the cursor can sit anywhere, e.g. inside a query-language string:
	// `jql: "${{ 'id > ' + string(page.cursor ?? 0) }}"`.
	Next spec.Value `yaml:"next,omitempty" mcpgen:"exactly_one=next"`
	// Link reads the next page's URL from the response's `Link` header
	// (RFC 8288), the link whose relation is the one named here, usually
	// `next`: `Link: <https://api.example.com/items?page=2>; rel="next"`.
	// It replaces `next`, and no cursor_param, cursor_field or
	// cursor_header applies. In cursor mode, nextCursor is that URL and the
	// tool declares a `cursor` argument: when the model passes it back,
	// the request goes to that URL (on the backend's host only).
	Link string `yaml:"link,omitempty" mcpgen:"exactly_one=next"`
	// CursorParam is the query parameter that carries the cursor to the next
	// page (follow mode). Without it, `next` is a URL (absolute on the same
	// host, or relative to the base URL).
	CursorParam string `yaml:"cursor_param,omitempty" mcpgen:"at_most_one=cursor"`
	// CursorField is the field of the JSON body that carries the cursor to
	// the next page (follow mode), for APIs that read it from the body of a
	// POST: `offset`, or a dotted path such as `page.after`.
	CursorField string `yaml:"cursor_field,omitempty" mcpgen:"at_most_one=cursor"`
	// CursorHeader is the request header that carries the cursor to the
	// next page (follow mode).
	CursorHeader string `yaml:"cursor_header,omitempty" mcpgen:"at_most_one=cursor"`
	// Items is an expression giving one page's list of items (follow mode),
	// e.g. ${{ response.body.data }}.
	Items spec.Value `yaml:"items,omitempty"`
	// MaxPages bounds the pages fetched in one call (follow mode). Defaults
	// to 10. A result the cap cut says so: `more: true` and a `note`.
	MaxPages int `yaml:"max_pages,omitempty"`
}
