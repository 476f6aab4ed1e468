package observe

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"time"
)

// Probe checks one backend for readiness.
type Probe struct {
	// Name of the backend.
	Name string
	// Required backends make the server not ready while they fail.
	Required bool
	// Every is the time between checks; Timeout bounds one.
	Every, Timeout time.Duration
	// Check returns why the backend cannot be reached, or nil.
	Check func(ctx context.Context) error
}

// Readiness probes backends in the background and answers /readyz from
// what it last found: asking never waits for a backend.
type Readiness struct {
	probes []Probe

	mu    sync.Mutex
	state map[string]*BackendStatus
}

// BackendStatus is what the last check of one backend found.
type BackendStatus struct {
	Required bool      `json:"required"`
	OK       bool      `json:"ok"`
	Error    string    `json:"error,omitempty"`
	Checked  time.Time `json:"checked,omitzero"`
}

// NewReadiness returns readiness over probes; nothing is checked before
// Run. A required backend not checked yet counts as not ready.
func NewReadiness(probes []Probe) *Readiness {
	r := &Readiness{probes: probes, state: map[string]*BackendStatus{}}
	for _, p := range probes {
		r.state[p.Name] = &BackendStatus{Required: p.Required, Error: "not checked yet"}
	}
	return r
}

// Run checks every probe at once, then at its interval, until ctx ends.
func (r *Readiness) Run(ctx context.Context) {
	var wg sync.WaitGroup
	for _, p := range r.probes {
		wg.Go(func() { r.loop(ctx, p) })
	}
	wg.Wait()
}

func (r *Readiness) loop(ctx context.Context, p Probe) {
	t := time.NewTicker(p.Every)
	defer t.Stop()
	for {
		r.check(ctx, p)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (r *Readiness) check(ctx context.Context, p Probe) {
	cctx, cancel := context.WithTimeout(ctx, p.Timeout)
	err := p.Check(cctx)
	if err == nil && cctx.Err() != nil {
		err = cctx.Err()
	}
	cancel()
	if ctx.Err() != nil {
		return
	}
	st := &BackendStatus{Required: p.Required, OK: err == nil, Checked: time.Now().UTC()}
	if err != nil {
		st.Error = err.Error()
	}
	r.mu.Lock()
	r.state[p.Name] = st
	r.mu.Unlock()
}

// Status is what /readyz answers.
type Status struct {
	Ready    bool                      `json:"ready"`
	Backends map[string]*BackendStatus `json:"backends,omitempty"`
}

// Status returns the readiness found so far.
func (r *Readiness) Status() Status {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := Status{Ready: true, Backends: map[string]*BackendStatus{}}
	for name, st := range r.state {
		c := *st
		s.Backends[name] = &c
		if st.Required && !st.OK {
			s.Ready = false
		}
	}
	return s
}

// ServeHTTP answers 200 when ready, 503 when not, with the detail of each
// backend as JSON.
func (r *Readiness) ServeHTTP(w http.ResponseWriter, _ *http.Request) {
	s := r.Status()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	if !s.Ready {
		w.WriteHeader(http.StatusServiceUnavailable)
	}
	_ = json.NewEncoder(w).Encode(s)
}
