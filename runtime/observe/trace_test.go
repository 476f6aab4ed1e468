package observe

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	collector "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"
)

func TestTracingWanted(t *testing.T) {
	for _, tt := range []struct {
		env  map[string]string
		want bool
	}{
		{nil, false},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}, true},
		{map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://collector:4318/v1/traces"}, true},
		{map[string]string{"OTEL_TRACES_EXPORTER": "otlp"}, true},
		{map[string]string{"OTEL_TRACES_EXPORTER": "none", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318"}, false},
		{map[string]string{"OTEL_SDK_DISABLED": "true", "OTEL_TRACES_EXPORTER": "otlp"}, false},
	} {
		if got := TracingWanted(func(k string) string { return tt.env[k] }); got != tt.want {
			t.Errorf("TracingWanted(%v) = %v, want %v", tt.env, got, tt.want)
		}
	}
}

// TestOTLPExport: with the standard environment pointing at an OTLP/HTTP
// receiver, a request's span and its backend's child span arrive there,
// with the service's name.
func TestOTLPExport(t *testing.T) {
	var mu sync.Mutex
	var got []*collector.ExportTraceServiceRequest
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		req := &collector.ExportTraceServiceRequest{}
		if r.URL.Path != "/v1/traces" || proto.Unmarshal(body, req) != nil {
			http.Error(w, "bad export", http.StatusBadRequest)
			return
		}
		mu.Lock()
		got = append(got, req)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
		out, _ := proto.Marshal(&collector.ExportTraceServiceResponse{})
		_, _ = w.Write(out)
	}))
	defer receiver.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.URL)
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
	t.Setenv("OTEL_TRACES_EXPORTER", "")
	ctx := context.Background()
	tp, err := NewTracerProvider(ctx, "demo", "1.2.3", io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	o := &Observer{Tracer: Tracer(tp)}
	rctx, req := o.StartRequest(ctx, "tools/call", "list", nil, nil)
	rctx = WithCall(rctx, o.NewCall("files"))
	_, op := Backend(rctx, KindShell)
	op.EndProcess("ls", 0, "ok")
	req.End("ok", nil)
	if err := tp.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	names := map[string][]byte{} // span name -> trace id
	service := ""
	for _, r := range got {
		for _, rs := range r.ResourceSpans {
			for _, a := range rs.Resource.Attributes {
				if a.Key == "service.name" {
					service = a.Value.GetStringValue()
				}
			}
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					names[s.Name] = s.TraceId
				}
			}
		}
	}
	if service != "demo" {
		t.Errorf("service.name %q, want demo", service)
	}
	req1, back := names["tools/call list"], names["shell files"]
	if req1 == nil || back == nil || string(req1) != string(back) {
		t.Errorf("spans received: %v", names)
	}
}

// TestSpanExporterChoice: OTLP over HTTP and the console are built in;
// asking for another exporter or protocol is an error that says what to
// set, not a silent fallback.
func TestSpanExporterChoice(t *testing.T) {
	for _, tt := range []struct {
		env     map[string]string
		wantErr string
	}{
		{map[string]string{}, ""},
		{map[string]string{"OTEL_TRACES_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/protobuf"}, ""},
		{map[string]string{"OTEL_TRACES_EXPORTER": "console"}, ""},
		{map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}, "http/protobuf only"},
		{map[string]string{"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/json"}, "http/protobuf only"},
		{map[string]string{"OTEL_TRACES_EXPORTER": "zipkin"}, "otlp (OTLP over HTTP) or console"},
	} {
		exp, err := spanExporter(context.Background(), func(k string) string { return tt.env[k] }, io.Discard)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%v: %v", tt.env, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%v: error %v, want one saying %q", tt.env, err, tt.wantErr)
		}
		if exp != nil {
			_ = exp.Shutdown(context.Background())
		}
	}
}
