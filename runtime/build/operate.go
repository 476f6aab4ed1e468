package build

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpgen/mcpgen/handlers"
	"github.com/mcpgen/mcpgen/runtime/cache"
	"github.com/mcpgen/mcpgen/runtime/limits"
	"github.com/mcpgen/mcpgen/runtime/load"
	"github.com/mcpgen/mcpgen/runtime/observe"
	"github.com/mcpgen/mcpgen/runtime/plan"
	"github.com/mcpgen/mcpgen/runtime/ratelimit"
	"github.com/mcpgen/mcpgen/spec"
)

// DefaultCacheBytes bounds the result cache when server.cache says nothing.
const DefaultCacheBytes = 64 << 20

func (b *builder) concurrency(f *load.File, path string, c *spec.Concurrency) *limits.Slots {
	if c == nil {
		return nil
	}
	if c.Max < 1 {
		b.errorf(f, path+".max", "max must be at least 1, got %d", c.Max)
		return nil
	}
	if c.Wait < 0 {
		b.errorf(f, path+".wait", "wait must not be negative")
		return nil
	}
	return &limits.Slots{Max: c.Max, Wait: time.Duration(c.Wait)}
}

// toolCache checks a tool's `cache`, once the tool is built: it must be
// read-only, and per caller when its result depends on the caller.
func (b *builder) toolCache(f *load.File, path string, t *spec.Tool, tl *plan.Tool) *limits.Cache {
	c := t.Cache
	if c == nil {
		return nil
	}
	if c.TTL <= 0 {
		b.errorf(f, path+".ttl", "ttl must be positive, e.g. 30s")
		return nil
	}
	if tl.Def.Annotations == nil || !tl.Def.Annotations.ReadOnlyHint {
		b.diag(f, load.Error, path, "cache is for read-only tools: a cached call runs nothing",
			"set annotations.read_only: true if the tool only reads")
		return nil
	}
	perCaller := b.identity.Configured
	if c.PerCaller != nil {
		perCaller = *c.PerCaller
	}
	if tl.NeedsCaller && !perCaller {
		b.diag(f, load.Error, path+".per_caller", "the tool reads `auth`: its results depend on the caller and must be cached per caller",
			"remove per_caller: false")
		return nil
	}
	if b.plan.Limits.Results == nil {
		b.plan.Limits.Results = cache.NewMemory(cmp.Or(b.cacheBytes, DefaultCacheBytes))
	}
	return &limits.Cache{TTL: time.Duration(c.TTL), PerCaller: perCaller || tl.NeedsCaller}
}

// cacheConfig sizes the result cache from server.cache.
func (b *builder) cacheConfig(f *load.File, c *spec.CacheServer) {
	if c == nil {
		return
	}
	if c.MaxBytes < 0 {
		b.errorf(f, "server.cache.max_bytes", "max_bytes must not be negative")
		return
	}
	b.cacheBytes = int64(cmp.Or(c.MaxBytes, DefaultCacheBytes))
}

// Defaults of a backend's readiness.
const (
	DefaultProbeInterval = 10 * time.Second
	DefaultProbeTimeout  = 2 * time.Second
)

// backendOps reads what mcpgen itself does with the named backend: its
// concurrency limit and its readiness probe.
func (b *builder) backendOps(f *load.File, path, name string, h *spec.Handler, value any) {
	if l := b.concurrency(f, path+".concurrency", h.Concurrency); l != nil {
		b.plan.Limits.Backends[name] = l
	}
	r := h.Readiness
	if r == nil {
		return
	}
	p, ok := value.(handlers.Pinger)
	if !ok {
		b.errorf(f, path+".readiness", "backends of kind %s cannot be probed", h.Kind)
		return
	}
	if r.ProbeInterval < 0 || r.Timeout < 0 {
		b.errorf(f, path+".readiness", "probe_interval and timeout must not be negative")
		return
	}
	redact := b.redact
	b.plan.Probes = append(b.plan.Probes, observe.Probe{Name: name, Required: r.Required,
		Every:   cmp.Or(time.Duration(r.ProbeInterval), DefaultProbeInterval),
		Timeout: cmp.Or(time.Duration(r.Timeout), DefaultProbeTimeout),
		Check: func(ctx context.Context) error {
			if err := p.Ping(ctx); err != nil {
				return errors.New(redact.Apply(err.Error()))
			}
			return nil
		}})
}

// toolLimit returns the rate limit of tool t: its own, else the server's.
func (b *builder) toolLimit(f *load.File, path string, t *spec.Tool) *limits.Rates {
	if t.RateLimit != nil {
		return b.rateLimit(f, path+".rate_limit", t.RateLimit)
	}
	return nil // the server's, if any, applies at call time
}

// rateLimit checks a rate_limit section.
func (b *builder) rateLimit(f *load.File, path string, rl *spec.RateLimit) *limits.Rates {
	if rl.Burst < 0 {
		b.errorf(f, path+".burst", "burst must be at least 1, got %d", rl.Burst)
		return nil
	}
	if rl.PerCaller == "" && rl.Global == "" {
		b.diag(f, load.Error, path, "a rate limit needs per_caller, global or both", "e.g. per_caller: 10/s")
		return nil
	}
	l := &limits.Rates{PerCaller: b.rateRule(f, path+".per_caller", rl.PerCaller, rl.Burst),
		Global: b.rateRule(f, path+".global", rl.Global, 0)}
	if l.PerCaller == nil && l.Global == nil {
		return nil
	}
	return l
}

// rateRule reads one rate (nil when not given or wrong); burst 0 takes
// the number in the rate.
func (b *builder) rateRule(f *load.File, path string, r spec.Rate, burst int) *limits.Rate {
	if r == "" {
		return nil
	}
	n, perSec, ok := parseRate(string(r))
	if !ok {
		b.diag(f, load.Error, path, fmt.Sprintf("invalid rate %q", r),
			"write a number of calls per second, minute or hour: 10/s, 100/m, 1000/h")
		return nil
	}
	if burst == 0 {
		burst = max(1, int(math.Ceil(n)))
	}
	return &limits.Rate{Limit: ratelimit.Limit{Rate: perSec, Burst: burst}, Text: string(r)}
}

// parseRate reads N/s, N/m or N/h: it returns N and the events per second.
func parseRate(s string) (n, perSec float64, ok bool) {
	num, unit, found := strings.Cut(strings.TrimSpace(s), "/")
	per := map[string]float64{"s": 1, "m": 60, "h": 3600}[strings.TrimSpace(unit)]
	n, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if !found || per == 0 || err != nil || n <= 0 || math.IsInf(n, 0) {
		return 0, 0, false
	}
	return n, n / per, true
}

// metricNames returns the names that metrics of the built server may use
// as label values: the tools, and the backends tools report to (a named
// backend, or the kind of a handler without one).
func (b *builder) metricNames() (tools, backends []string) {
	s := b.plan
	seen := map[string]bool{}
	for _, t := range s.Tools {
		tools = append(tools, t.Def.Name)
		if t.Backend != "" {
			seen[t.Backend] = true
		}
	}
	for name := range s.Backends {
		seen[name] = true
	}
	return tools, slices.Sorted(maps.Keys(seen))
}
