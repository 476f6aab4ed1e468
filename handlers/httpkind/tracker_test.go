package httpkind_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// tracker is a fake of the ticket tracker of examples/http-api: tickets,
// comments, attachments, reports behind OAuth and a legacy timesheet CGI.
type tracker struct {
	*httptest.Server
	mu       sync.Mutex
	tickets  []map[string]any
	uploads  []map[string]string
	hours    []string
	lastHdrs http.Header
	polls    int // of report jobs
}

const (
	trackerToken   = "trk-0123456789"
	attachmentsKey = "att-0123456789"
	reportsSecret  = "rep-0123456789"
	renderKey      = "ren-0123456789"
	oauthToken     = "oauth-0123456789"
	exchangeSecret = "exc-0123456789"
	userToken      = "user-ann-0123456789" // ann's token for mcpgen
	annAtTracker   = "tracker-ann-0123456789"
	pngBytes       = "\x89PNG\r\n\x1a\n0000"
)

func newTracker(t *testing.T) *tracker {
	tr := &tracker{tickets: []map[string]any{
		{"id": "T-1", "title": "Printer on fire", "status": "open", "priority": int64(1), "labels": []any{"hardware", "urgent"}, "comments": []any{}},
		{"id": "T-2", "title": "VPN drops", "status": "open", "priority": int64(2), "labels": []any{"network", "urgent"}, "comments": []any{},
			"assignee": "ann@example.com"},
		{"id": "T-3", "title": "Old laptop", "status": "archived", "priority": int64(4), "labels": []any{"hardware"}, "comments": []any{}},
		{"id": "T-4", "title": "Badge reader", "status": "open", "priority": int64(3), "labels": []any{"hardware", "urgent"}, "comments": []any{}},
	}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/v1/tickets", tr.auth(tr.list))
	mux.HandleFunc("POST /api/v1/tickets", tr.auth(tr.create))
	mux.HandleFunc("GET /api/v1/tickets/{id}", tr.auth(tr.get))
	mux.HandleFunc("POST /api/v1/tickets/{id}", tr.auth(tr.update))
	mux.HandleFunc("POST /api/v1/tickets/{id}/comments", tr.auth(tr.comment))
	mux.HandleFunc("POST /renderer/render", tr.render)
	mux.HandleFunc("POST /files/upload", tr.upload)
	mux.HandleFunc("GET /files/{id}", tr.attachment)
	mux.HandleFunc("POST /oauth/token", tr.token)
	mux.HandleFunc("GET /reports/teams/{team}/stats", tr.stats)
	mux.HandleFunc("POST /reports/teams/{team}/yearly", tr.startReport)
	mux.HandleFunc("GET /reports/jobs/{id}", tr.reportJob)
	mux.HandleFunc("POST /legacy/timesheet.cgi", tr.timesheet)
	tr.Server = httptest.NewServer(mux)
	t.Cleanup(tr.Close)
	return tr
}

func (tr *tracker) auth(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		tr.mu.Lock()
		tr.lastHdrs = r.Header.Clone()
		tr.mu.Unlock()
		if a := r.Header.Get("Authorization"); a != "Bearer "+trackerToken && a != "Bearer "+annAtTracker {
			jsonReply(401, map[string]any{"error": map[string]any{"code": "unauthorized", "message": "bad token"}})(w, r)
			return
		}
		next(w, r)
	}
}

func (tr *tracker) find(id string) map[string]any {
	for _, t := range tr.tickets {
		if t["id"] == id {
			return t
		}
	}
	return nil
}

func (tr *tracker) list(w http.ResponseWriter, r *http.Request) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	q := r.URL.Query()
	var found []any
	for _, t := range tr.tickets {
		labels := t["labels"].([]any)
		ok := (q.Get("status") == "" || t["status"] == q.Get("status")) &&
			(q.Get("assignee") == "" || t["assignee"] == q.Get("assignee")) &&
			strings.Contains(strings.ToLower(t["title"].(string)), strings.ToLower(q.Get("q")))
		for _, l := range q["label"] {
			ok = ok && slices.Contains(labels, any(l))
		}
		if ok {
			found = append(found, t)
		}
	}
	start, _ := strconv.Atoi(q.Get("cursor"))
	limit, _ := strconv.Atoi(q.Get("limit"))
	if limit <= 0 {
		limit = 20
	}
	end := min(start+limit, len(found))
	reply := map[string]any{"data": append([]any{}, found[min(start, end):end]...), "next_cursor": nil}
	if end < len(found) {
		reply["next_cursor"] = strconv.Itoa(end)
	}
	jsonReply(200, reply)(w, r)
}

func (tr *tracker) get(w http.ResponseWriter, r *http.Request) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	t := tr.find(r.PathValue("id"))
	switch {
	case t == nil:
		jsonReply(404, map[string]any{"error": map[string]any{"code": "not_found", "message": "not found"}})(w, r)
	case t["status"] == "archived":
		jsonReply(410, map[string]any{"error": map[string]any{"code": "archived", "message": "gone"}})(w, r)
	default:
		jsonReply(200, t)(w, r)
	}
}

func (tr *tracker) create(w http.ResponseWriter, r *http.Request) {
	var in map[string]any
	d := json.NewDecoder(r.Body)
	d.UseNumber()
	if err := d.Decode(&in); err != nil || in["title"] == nil {
		jsonReply(400, map[string]any{"error": map[string]any{"code": "invalid", "message": "a title is required"}})(w, r)
		return
	}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	in["id"] = fmt.Sprintf("T-%d", len(tr.tickets)+1)
	in["status"] = "open"
	tr.tickets = append(tr.tickets, in)
	jsonReply(201, in)(w, r)
}

func (tr *tracker) update(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("X-HTTP-Method-Override") != "PATCH" {
		jsonReply(405, map[string]any{"error": map[string]any{"message": "use PATCH"}})(w, r)
		return
	}
	var in map[string]any
	_ = json.NewDecoder(r.Body).Decode(&in)
	tr.mu.Lock()
	defer tr.mu.Unlock()
	t := tr.find(r.PathValue("id"))
	switch {
	case t == nil:
		jsonReply(404, map[string]any{"error": map[string]any{"code": "not_found"}})(w, r)
		return
	case t["status"] == "closed" && in["status"] == "in_progress":
		jsonReply(409, map[string]any{"error": map[string]any{"code": "invalid_transition", "message": "a closed ticket cannot move to in_progress"}})(w, r)
		return
	}
	for k, v := range in {
		t[k] = v
	}
	jsonReply(200, t)(w, r)
}

func (tr *tracker) comment(w http.ResponseWriter, r *http.Request) {
	var in struct{ Body string }
	_ = json.NewDecoder(r.Body).Decode(&in)
	tr.mu.Lock()
	defer tr.mu.Unlock()
	t := tr.find(r.PathValue("id"))
	if t == nil {
		jsonReply(404, map[string]any{"error": "no such ticket"})(w, r)
		return
	}
	c := map[string]any{"id": fmt.Sprintf("C-%d", len(t["comments"].([]any))+1), "body": in.Body}
	t["comments"] = append(t["comments"].([]any), c)
	jsonReply(201, c)(w, r)
}

func (tr *tracker) render(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("X-Render-Key") != renderKey {
		jsonReply(403, map[string]any{"message": "bad key"})(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, "<p>%s</p>\n<!-- %s -->", strings.ReplaceAll(string(body), "**", "<b>"), r.Header.Get("Content-Type"))
}

func (tr *tracker) upload(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Get("key") != attachmentsKey {
		jsonReply(403, map[string]any{"message": "bad key"})(w, r)
		return
	}
	if err := r.ParseMultipartForm(1 << 20); err != nil {
		jsonReply(400, map[string]any{"message": err.Error()})(w, r)
		return
	}
	f, h, err := r.FormFile("file")
	if err != nil {
		jsonReply(400, map[string]any{"message": "no file"})(w, r)
		return
	}
	content, _ := io.ReadAll(f)
	tr.mu.Lock()
	tr.uploads = append(tr.uploads, map[string]string{"ticket": r.FormValue("ticket"), "filename": h.Filename,
		"content": string(content), "meta": r.FormValue("meta")})
	tr.mu.Unlock()
	jsonReply(201, map[string]any{"attachment_id": "A-1", "size": len(content)})(w, r)
}

func (tr *tracker) attachment(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Get("key") != attachmentsKey {
		jsonReply(403, map[string]any{"message": "bad key"})(w, r)
		return
	}
	w.Header().Set("Content-Type", "image/png")
	_, _ = io.WriteString(w, pngBytes)
}

func (tr *tracker) token(w http.ResponseWriter, r *http.Request) {
	if r.FormValue("grant_type") == "urn:ietf:params:oauth:grant-type:token-exchange" {
		tr.exchange(w, r)
		return
	}
	id, secret, _ := r.BasicAuth()
	if id != "reports-client" || secret != reportsSecret || r.FormValue("scope") != "reports.read" || r.FormValue("audience") != "reports" {
		jsonReply(401, map[string]any{"error": "invalid_client"})(w, r)
		return
	}
	jsonReply(200, map[string]any{"access_token": oauthToken, "token_type": "Bearer", "expires_in": 3600})(w, r)
}

// exchange is RFC 8693 for the exchange client: ann's token for mcpgen
// becomes ann's token for the tracker.
func (tr *tracker) exchange(w http.ResponseWriter, r *http.Request) {
	id, secret, _ := r.BasicAuth()
	switch {
	case id != "exchange-client" || secret != exchangeSecret:
		jsonReply(401, map[string]any{"error": "invalid_client"})(w, r)
	case r.FormValue("subject_token") != userToken || r.FormValue("audience") != "tracker":
		jsonReply(400, map[string]any{"error": "invalid_grant"})(w, r)
	default:
		jsonReply(200, map[string]any{"access_token": annAtTracker, "token_type": "Bearer", "expires_in": 3600,
			"issued_token_type": "urn:ietf:params:oauth:token-type:access_token"})(w, r)
	}
}

func (tr *tracker) stats(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != "Bearer "+oauthToken {
		jsonReply(401, map[string]any{"error": "invalid_token"})(w, r)
		return
	}
	q := r.URL.Query()
	open := 7
	if q.Get("label[0]") == "urgent" && q.Get("label[1]") == "network" {
		open = 2
	}
	jsonReply(200, map[string]any{"team": r.PathValue("team"), "stats": map[string]any{"open": open, "closed": 40, "cycle_days": 3.5}})(w, r)
}

// startReport starts a report job: 202 and where to poll it.
func (tr *tracker) startReport(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("Authorization") != "Bearer "+oauthToken {
		jsonReply(401, map[string]any{"error": "invalid_token"})(w, r)
		return
	}
	w.Header().Set("Location", "../../jobs/"+r.PathValue("team")+"-1")
	w.Header().Set("Retry-After", "0")
	w.WriteHeader(http.StatusAccepted)
}

// reportJob is running for the first poll, then done.
func (tr *tracker) reportJob(w http.ResponseWriter, r *http.Request) {
	tr.mu.Lock()
	tr.polls++
	polls := tr.polls
	tr.mu.Unlock()
	if polls < 2 {
		w.Header().Set("Retry-After", "0")
		w.WriteHeader(http.StatusAccepted)
		return
	}
	jsonReply(200, map[string]any{"url": "https://reports.test/" + r.PathValue("id") + ".pdf"})(w, r)
}

func (tr *tracker) timesheet(w http.ResponseWriter, r *http.Request) {
	user, pass, _ := r.BasicAuth()
	w.Header().Set("Content-Type", "text/plain")
	if user != "ann" || pass != "pw-0123456789" {
		w.WriteHeader(401)
		_, _ = io.WriteString(w, "ERROR: login")
		return
	}
	_ = r.ParseForm()
	if r.Form.Get("hours") == "" || strings.HasPrefix(r.Form.Get("ticket"), "T-9") {
		_, _ = io.WriteString(w, "ERROR: unknown ticket") // the legacy system answers 200 either way
		return
	}
	tr.mu.Lock()
	tr.hours = append(tr.hours, r.Form.Encode())
	tr.mu.Unlock()
	_, _ = io.WriteString(w, "OK")
}
