// Package devpage is the web page of `mcpgen dev`: a plain MCP client of
// the server it is served beside, in the browser, to try every tool,
// resource and prompt of a config while editing it.
//
// The page speaks Streamable HTTP to the server like any client. What it
// needs beyond the config's own tools, resources and prompts is two
// resources that only `mcpgen dev` serves: StatusURI (the current config
// errors, updated through resources/subscribe) and the DryRunTemplate
// (the exact backend request a call would make). Everything the page uses
// is embedded in the binary.
package devpage

import (
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/mcpgen/mcpgen/runtime/internal/gosdk/mcp"
	"github.com/mcpgen/mcpgen/runtime/load"
)

// Resources only `mcpgen dev` serves.
const (
	// StatusURI is the state of the config: JSON {ok, builds, problems}.
	StatusURI = "mcpgen-dev://status"
	// DryRunTemplate shows what calling tool with the JSON object args
	// would send to its backend, without sending it.
	DryRunTemplate = "mcpgen-dev://dry-run/{tool}{?args}"
)

//go:embed static
var static embed.FS

// Problem is one diagnostic of the config, as the page shows it.
type Problem struct {
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Col      int    `json:"col,omitempty"`
	Severity string `json:"severity"`
	// Text is the whole diagnostic as `mcpgen validate` prints it:
	// file:line:col: path: message; hint.
	Text string `json:"text"`
}

// Status is what StatusURI reads.
type Status struct {
	// OK is false when the config on disk does not build; the last good
	// one is served meanwhile.
	OK bool `json:"ok"`
	// Builds counts the builds so far, good or not.
	Builds   int       `json:"builds"`
	Problems []Problem `json:"problems"`
	// Costs are the tokens of what clients list, and the budget.
	Costs *Costs `json:"costs,omitempty"`
	// ToolSearch: the config served lists the search tools instead of
	// every tool (server.tool_search, or the page's switch).
	ToolSearch bool `json:"tool_search"`
}

// Costs are the tokens of the served config's tools, as validate --costs
// counts them, and server.budget's limits (0: none).
type Costs struct {
	Encoding        string         `json:"encoding"`
	Tools           map[string]int `json:"tools"`
	ToolsList       int            `json:"tools_list_tokens"`
	Total           int            `json:"total_tokens"`
	BudgetToolsList int            `json:"budget_tools_list_tokens,omitempty"`
	BudgetTool      int            `json:"budget_tool_tokens,omitempty"`
}

// DryRunner is what the dry-run resource asks: the server being served.
type DryRunner interface {
	DryRun(ctx context.Context, tool string, args []byte) (string, error)
}

// Dev holds the page's state and serves its resources.
type Dev struct {
	srv      *mcp.Server
	dry      DryRunner
	mu       sync.Mutex
	st       Status
	costs    func() *Costs // of the config served now; nil for none
	switches Switches
}

// Switches change how the config is served for the run, as serve's flags
// do; the page shows them as toggles.
type Switches struct {
	// ToolSearch reports whether the config served lists the search tools.
	ToolSearch func() bool
	// SetToolSearch turns tool search on or off, whatever the config says,
	// and builds the config again; a config that does not build leaves the
	// one served as it was.
	SetToolSearch func(ctx context.Context, on bool)
}

// SwitchWith sets what the page's toggles read and change.
func (d *Dev) SwitchWith(s Switches) {
	d.mu.Lock()
	d.switches = s
	d.mu.Unlock()
}

// CostsFrom sets where the status reads the costs of the config served.
func (d *Dev) CostsFrom(f func() *Costs) {
	d.mu.Lock()
	d.costs = f
	d.mu.Unlock()
}

// Register adds the page's resources to srv, the server the page's MCP
// endpoint serves; dry answers the dry-run resource.
func Register(srv *mcp.Server, dry DryRunner) *Dev {
	d := &Dev{srv: srv, dry: dry, st: Status{OK: true, Problems: []Problem{}}}
	srv.AddResource(&mcp.Resource{URI: StatusURI, Name: "mcpgen-dev-status", MIMEType: "application/json",
		Description: "mcpgen dev: the errors of the config on disk."}, d.readStatus)
	srv.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: DryRunTemplate, Name: "mcpgen-dev-dry-run",
		MIMEType: "text/plain", Description: "mcpgen dev: what a call would send to its backend."}, d.readDryRun)
	return d
}

// Built records the outcome of a build and tells the page.
func (d *Dev) Built(ds load.Diagnostics, ok bool) {
	d.mu.Lock()
	d.st.Builds++
	d.st.OK = ok
	d.st.Problems = problems(ds)
	d.mu.Unlock()
	_ = d.srv.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: StatusURI})
}

func problems(ds load.Diagnostics) []Problem {
	out := []Problem{}
	for _, dg := range ds {
		out = append(out, Problem{File: dg.File, Line: dg.Line, Col: dg.Col, Severity: string(dg.Severity), Text: dg.String()})
	}
	return out
}

func (d *Dev) readStatus(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	d.mu.Lock()
	st := d.st
	if d.costs != nil {
		st.Costs = d.costs()
	}
	if d.switches.ToolSearch != nil {
		st.ToolSearch = d.switches.ToolSearch()
	}
	b, err := json.Marshal(st)
	d.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: StatusURI, MIMEType: "application/json", Text: string(b)}}}, nil
}

func (d *Dev) readDryRun(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "mcpgen-dev" || u.Host != "dry-run" {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	tool := strings.TrimPrefix(u.Path, "/")
	args := u.Query().Get("args")
	if args == "" {
		args = "{}"
	}
	text, err := d.dry.DryRun(ctx, tool, []byte(args))
	if err != nil {
		text = "no dry run: " + err.Error()
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/plain", Text: text}}}, nil
}

// NewToken returns a random token for the page's URL: only who was given
// the URL reaches the page and its MCP endpoint.
func NewToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Handler serves the page at /TOKEN/ and mcpHandler at /TOKEN/mcp; any
// other path is 404, so that a local page or process without the token
// reaches nothing. Every path answers only a loopback Host (a DNS
// rebinding page reaches nothing), the page may not be framed, and the
// MCP endpoint refuses a browser request from another origin than the
// page's own.
func Handler(token string, mcpHandler http.Handler) http.Handler {
	return handler(token, mcpHandler, nil)
}

// Handler is the package's Handler, with the page's toggles at
// /TOKEN/tool-search too: a POST of {"on": true|false}, under the same
// rules as the MCP endpoint, answered with the state that results.
func (d *Dev) Handler(token string, mcpHandler http.Handler) http.Handler {
	return handler(token, mcpHandler, http.HandlerFunc(d.setToolSearch))
}

func (d *Dev) setToolSearch(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "Method Not Allowed: POST {\"on\": true|false}", http.StatusMethodNotAllowed)
		return
	}
	var req struct {
		On *bool `json:"on"`
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<10))
	if err := dec.Decode(&req); err != nil || req.On == nil {
		http.Error(w, `Bad Request: expected {"on": true|false}`, http.StatusBadRequest)
		return
	}
	d.mu.Lock()
	sw := d.switches
	d.mu.Unlock()
	if sw.SetToolSearch == nil || sw.ToolSearch == nil {
		http.NotFound(w, r)
		return
	}
	sw.SetToolSearch(r.Context(), *req.On)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(map[string]bool{"tool_search": sw.ToolSearch()})
}

func handler(token string, mcpHandler, toolSearch http.Handler) http.Handler {
	files, _ := fs.Sub(static, "static")
	page := http.StripPrefix("/"+token, http.FileServerFS(files))
	prefix := "/" + token + "/"
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !loopbackHost(r.Host) {
			http.Error(w, "Forbidden: the dev page answers only on a loopback host", http.StatusForbidden)
			return
		}
		switch {
		case r.URL.Path == "/"+token:
			http.Redirect(w, r, prefix, http.StatusFound)
		case (r.URL.Path == prefix+"mcp" || r.URL.Path == prefix+"tool-search" && toolSearch != nil) &&
			!sameOrigin(r):
			http.Error(w, "Forbidden: a request from another origin than the dev page's", http.StatusForbidden)
		case r.URL.Path == prefix+"mcp":
			r2 := r.Clone(r.Context())
			r2.URL.Path = "/mcp"
			mcpHandler.ServeHTTP(w, r2)
		case r.URL.Path == prefix+"tool-search" && toolSearch != nil:
			toolSearch.ServeHTTP(w, r)
		case strings.HasPrefix(r.URL.Path, prefix):
			w.Header().Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; frame-ancestors 'none'")
			w.Header().Set("X-Frame-Options", "DENY")
			w.Header().Set("Cache-Control", "no-store")
			page.ServeHTTP(w, r)
		default:
			http.NotFound(w, r)
		}
	})
}

// sameOrigin reports whether a request comes from the page's own origin,
// or from a client that names none (not a browser).
func sameOrigin(r *http.Request) bool {
	o := r.Header.Get("Origin")
	return o == "" || o == "http://"+r.Host
}

// loopbackHost reports whether a Host header (host or host:port) names
// this machine's loopback: localhost, 127.0.0.0/8 or ::1.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
