package transport

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/observe"
)

// TestPanicBeforeDispatch: a panic in the HTTP handling before the
// go-sdk's dispatch is answered 500 with a JSON-RPC internal error and
// counted; the handler goes on serving.
func TestPanicBeforeDispatch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mcpgen.yaml")
	if err := os.WriteFile(path, []byte("version: 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	m := observe.NewMetrics()
	srv, ds := runtime.Compile([]string{path}, load.Options{}, runtime.BuildOptions{Observer: &observe.Observer{Metrics: m}})
	if ds.Errors() > 0 {
		t.Fatal(ds)
	}
	h := NewHTTPHandler(srv, HTTPOptions{})
	defer h.Close()
	h.mux.HandleFunc("/boom", func(http.ResponseWriter, *http.Request) { panic("boom before dispatch") })

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "http://127.0.0.1/boom", nil))
	var reply struct{ Error struct{ Code int64 } }
	if rec.Code != http.StatusInternalServerError || json.Unmarshal(rec.Body.Bytes(), &reply) != nil || reply.Error.Code != -32603 {
		t.Errorf("status %d, body %s; want 500 with a -32603 error", rec.Code, rec.Body)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://127.0.0.1"+HealthzPath, nil))
	if rec.Code != http.StatusOK {
		t.Errorf("healthz after the panic: status %d", rec.Code)
	}
	fams, _ := m.Registry().Gather()
	n := 0.0
	for _, f := range fams {
		if f.GetName() == "mcpgen_panics_total" {
			for _, s := range f.GetMetric() {
				n += s.GetCounter().GetValue()
			}
		}
	}
	if n != 1 {
		t.Errorf("mcpgen_panics_total = %v, want 1", n)
	}
}
