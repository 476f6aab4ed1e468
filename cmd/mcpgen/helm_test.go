package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mcpgen/mcpgen/handlers/builtin"
	"github.com/mcpgen/mcpgen/runtime"
	"github.com/mcpgen/mcpgen/runtime/load"
	"gopkg.in/yaml.v3"
)

const chartDir = "../../deploy/helm/mcpgen"

// chartAppVersion is Chart.yaml's appVersion: the image tag the chart and
// the plain manifests run.
func chartAppVersion(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(chartDir, "Chart.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		AppVersion string `yaml:"appVersion"`
	}
	if err := yaml.Unmarshal(data, &c); err != nil || c.AppVersion == "" || c.AppVersion == "latest" {
		t.Fatalf("Chart.yaml: appVersion %q (%v): want a pinned version", c.AppVersion, err)
	}
	return c.AppVersion
}

// TestManifestImagePinned: the plain manifests run the chart's appVersion,
// not an unpinned tag.
func TestManifestImagePinned(t *testing.T) {
	want := "registry.example.com/mcpgen:" + chartAppVersion(t)
	var seen int
	for _, o := range decodeObjects(t) {
		d, ok := o.(*deployment)
		if !ok {
			continue
		}
		for _, c := range d.Spec.Template.Spec.Containers {
			if !pinnedImage(c.Image) {
				t.Errorf("%s: image %q is not pinned to a version", d.Metadata.Name, c.Image)
			}
			if c.Name == "mcpgen" {
				seen++
				if c.Image != want {
					t.Errorf("mcpgen image %q, want %q (Chart.yaml's appVersion)", c.Image, want)
				}
			}
		}
	}
	if seen == 0 {
		t.Fatal("no mcpgen container in deploy/kubernetes")
	}
	for img, want := range map[string]bool{"r/mcpgen:v0.1.0": true, "r/mcpgen:latest": false, "r/mcpgen": false,
		"r:5000/mcpgen": false, "r/mcpgen@sha256:0123": true, "redis:7-alpine": true} {
		if pinnedImage(img) != want {
			t.Errorf("pinnedImage(%q) = %v", img, !want)
		}
	}
}

// pinnedImage says whether an image names a tag other than latest, or a
// digest.
func pinnedImage(img string) bool {
	if strings.Contains(img, "@sha256:") {
		return true
	}
	i := strings.LastIndex(img, ":")
	return i > strings.LastIndex(img, "/") && img[i+1:] != "latest"
}

// helmBinary is the helm CI builds (MCPGEN_TEST_HELM); without it the
// chart tests skip, unless MCPGEN_TEST_HELM_REQUIRED says CI needs them.
func helmBinary(t *testing.T) string {
	t.Helper()
	h := os.Getenv("MCPGEN_TEST_HELM")
	if h == "" {
		if os.Getenv("MCPGEN_TEST_HELM_REQUIRED") != "" {
			t.Fatal("helm is required (MCPGEN_TEST_HELM_REQUIRED) and MCPGEN_TEST_HELM is not set")
		}
		t.Skip("MCPGEN_TEST_HELM is not set")
	}
	return h
}

// helmTemplate renders the chart as release r1 with the given flags.
func helmTemplate(t *testing.T, helm string, flags ...string) ([]byte, error) {
	t.Helper()
	cmd := exec.Command(helm, append([]string{"template", "r1", chartDir}, flags...)...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, &helmError{err, stderr.String()}
	}
	return out, nil
}

type helmError struct {
	err    error
	stderr string
}

func (e *helmError) Error() string { return e.err.Error() + ": " + e.stderr }

// rendered is what the chart made for one set of values.
type rendered struct {
	objs    []any
	dep     *deployment // mcpgen's
	redis   *deployment
	config  string
	secrets map[string]*secret
	svcs    map[string]*service
	ingress *ingress
	netpol  *networkPolicy
	hpa     *autoscaler
	pdb     *disruptionBudget
}

func renderChart(t *testing.T, helm string, flags ...string) *rendered {
	t.Helper()
	out, err := helmTemplate(t, helm, flags...)
	if err != nil {
		t.Fatalf("helm template %v: %v", flags, err)
	}
	objs, err := decodeManifests(out)
	if err != nil {
		t.Fatalf("helm template %v: %v", flags, err)
	}
	r := &rendered{objs: objs, secrets: map[string]*secret{}, svcs: map[string]*service{}}
	for _, o := range objs {
		switch o := o.(type) {
		case *deployment:
			if strings.HasSuffix(o.Metadata.Name, "-redis") {
				r.redis = o
			} else {
				r.dep = o
			}
		case *configMap:
			r.config = o.Data["mcpgen.yaml"]
		case *secret:
			r.secrets[o.Metadata.Name] = o
		case *service:
			r.svcs[o.Metadata.Name] = o
		case *ingress:
			r.ingress = o
		case *networkPolicy:
			r.netpol = o
		case *autoscaler:
			r.hpa = o
		case *disruptionBudget:
			r.pdb = o
		}
	}
	if r.dep == nil || r.config == "" {
		t.Fatalf("helm template %v: no mcpgen Deployment or no config", flags)
	}
	return r
}

// podEnv is the mcpgen container's environment: literal values as given,
// values from a Secret as placeholders.
func (r *rendered) podEnv() map[string]string {
	env := map[string]string{}
	for _, e := range r.dep.Spec.Template.Spec.Containers[0].Env {
		env[e.Name] = e.Value
		if e.ValueFrom != nil {
			env[e.Name], _ = placeholder(e.Name)
		}
	}
	return env
}

// textFile writes text to a file of its own and returns its path.
func textFile(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "values.txt")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// selects says whether a selector's labels are all among a pod's.
func selects(sel, labels map[string]string) bool {
	for k, v := range sel {
		if labels[k] != v {
			return false
		}
	}
	return len(sel) > 0
}

// TestHelmChart renders deploy/helm/mcpgen with several sets of values and
// checks each: every object decodes strictly; the image is the chart's
// appVersion; mcpgen loads the config with exactly the environment the
// Deployment gives it; every secret reference names a Secret the chart
// makes (with that key) or the existing Secret of the values; the security
// settings of TestDeploySecurity hold; with Redis the config gets its
// address and only mcpgen's pods may reach it.
func TestHelmChart(t *testing.T) {
	helm := helmBinary(t)
	appVersion := chartAppVersion(t)
	uid := dockerfileUser(t)
	stateful := filepath.Join(chartDir, "ci/stateful-values.yaml")
	ownState := `version: 1
server:
  name: own-state
  http: {addr: 0.0.0.0:8080, allowed_hosts: [mcp.example.com]}
  # written by hand: kept as written
  state: {redis: {addr: "${MCPGEN_REDIS_ADDR}", prefix: "own:"}}
tools:
  - {name: hello, description: Says hello., content: [{text: hello}]}
`
	withAuth := `version: 1
server:
  name: authed
  http:
    addr: 0.0.0.0:8080
    allowed_hosts: [mcp.example.com]
    auth:
      resource: ${MCPGEN_AUTH_RESOURCE}
      oauth: {issuer: "${MCPGEN_AUTH_ISSUER}", jwks_url: "${MCPGEN_AUTH_JWKS_URL}"}
tools:
  - {name: hello, description: Says hello., content: [{text: hello}]}
`
	cases := []struct {
		name           string
		flags          []string
		existingSecret string
		redis          bool // the chart's own Redis
		redisAddr      string
		stateful       bool
	}{
		{name: "defaults"},
		{name: "stateful", flags: []string{"-f", stateful}, existingSecret: "mcpgen-secrets", redis: true,
			redisAddr: "r1-mcpgen-redis:6379", stateful: true},
		{name: "own-state", flags: []string{"--set", "redis.enabled=true", "--set-file", "config=" + textFile(t, ownState),
			"--set", "secretEnv=null", "--set", "ingress.enabled=true"}, redis: true, redisAddr: "r1-mcpgen-redis:6379"},
		{name: "external-redis-auth", flags: []string{"--set-string", "redis.address=redis.shared:6379",
			"--set-file", "config=" + textFile(t, withAuth), "--set-string", "auth.issuer=https://idp.example.com",
			"--set-string", "auth.resource=https://mcp.example.com/mcp", "--set-string", "auth.jwksURL=https://idp.example.com/jwks",
			"--set", "autoscaling.enabled=false"}, redisAddr: "redis.shared:6379"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := renderChart(t, helm, tc.flags...)
			pod := r.dep.Spec.Template.Spec
			c := pod.Containers[0]
			if want := "registry.example.com/mcpgen:" + appVersion; c.Image != want {
				t.Errorf("image %q, want %q", c.Image, want)
			}

			// mcpgen loads the config with the pod's environment and no more
			env := r.podEnv()
			path := filepath.Join(t.TempDir(), "mcpgen.yaml")
			os.WriteFile(path, []byte(r.config), 0o644)
			lookup := func(name string) (string, bool) { v, ok := env[name]; return v, ok }
			srv, ds := runtime.Compile([]string{path}, load.Options{LookupEnv: lookup}, runtime.BuildOptions{Registry: builtin.Registry()})
			if srv == nil || ds.Errors() > 0 {
				t.Fatalf("the config does not load with the pod's environment %v:\n%v\n%s", env, ds, r.config)
			}
			srv.Close()
			// as CI validates configs without their secrets; a config reading
			// the Redis address from a variable cannot pass (an empty address
			// is refused)
			if out, code := runOut(t, "validate", "--skip-env", path); code != exitOK && !strings.Contains(r.config, "${MCPGEN_REDIS_ADDR}") {
				t.Errorf("validate --skip-env: %s", out)
			}

			// every secret reference names what exists
			for _, e := range c.Env {
				if e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil {
					continue
				}
				ref := e.ValueFrom.SecretKeyRef
				if s, ok := r.secrets[ref.Name]; ok {
					if _, ok := s.StringData[ref.Key]; !ok {
						t.Errorf("%s: Secret %s has no key %s", e.Name, ref.Name, ref.Key)
					}
				} else if ref.Name != tc.existingSecret || tc.existingSecret == "" {
					t.Errorf("%s: Secret %s is neither the chart's nor the existing one (%q)", e.Name, ref.Name, tc.existingSecret)
				}
			}

			// the security settings of the plain manifests
			var ps securityContext
			b, _ := yaml.Marshal(pod.SecurityContext)
			yaml.Unmarshal(b, &ps)
			var cs securityContext
			b, _ = yaml.Marshal(c.SecurityContext)
			yaml.Unmarshal(b, &cs)
			got := cs.over(ps)
			if got.RunAsNonRoot == nil || !*got.RunAsNonRoot || got.RunAsUser == nil || *got.RunAsUser != uid ||
				got.ReadOnlyRootFilesystem == nil || !*got.ReadOnlyRootFilesystem ||
				got.AllowPrivilegeEscalation == nil || *got.AllowPrivilegeEscalation {
				t.Errorf("security context %+v: want non-root user %d, read-only root, no privilege escalation", c.SecurityContext, uid)
			}
			if !slices.Equal(c.SecurityContext.Capabilities.Drop, []string{"ALL"}) || pod.SecurityContext.SeccompProfile.Type != "RuntimeDefault" {
				t.Errorf("capabilities drop %v, seccomp %q: want ALL and RuntimeDefault", c.SecurityContext.Capabilities.Drop, pod.SecurityContext.SeccompProfile.Type)
			}
			if c.ReadinessProbe == nil || c.ReadinessProbe.HTTPGet == nil || c.ReadinessProbe.HTTPGet.Path != "/readyz" ||
				c.LivenessProbe == nil || c.LivenessProbe.HTTPGet == nil || c.LivenessProbe.HTTPGet.Path != "/healthz" {
				t.Error("probes: want readiness /readyz and liveness /healthz")
			}
			if r.dep.Spec.Template.Metadata.Annotations["checksum/config"] == "" {
				t.Error("no checksum/config annotation on the pods")
			}

			// the Service, PDB and autoscaler find mcpgen's pods and not Redis's
			podLabels := r.dep.Spec.Template.Metadata.Labels
			if !selects(r.dep.Spec.Selector.MatchLabels, podLabels) || !selects(r.svcs["r1-mcpgen"].Spec.Selector, podLabels) {
				t.Error("the Deployment or the Service does not select mcpgen's pods")
			}
			if (r.pdb == nil) || !selects(r.pdb.Spec.Selector.MatchLabels, podLabels) {
				t.Error("no disruption budget over mcpgen's pods")
			}
			if autoscale := !slices.Contains(tc.flags, "autoscaling.enabled=false"); (r.hpa != nil) != autoscale ||
				autoscale && r.dep.Spec.Replicas != nil || !autoscale && r.dep.Spec.Replicas == nil {
				t.Errorf("autoscaler %v, replicas %v: want one or the other", r.hpa != nil, r.dep.Spec.Replicas)
			}

			// Redis
			if got := env["MCPGEN_REDIS_ADDR"]; got != tc.redisAddr {
				t.Errorf("MCPGEN_REDIS_ADDR %q, want %q", got, tc.redisAddr)
			}
			var cfg struct {
				Server struct {
					State struct {
						Redis struct {
							Addr string `yaml:"addr"`
						} `yaml:"redis"`
					} `yaml:"state"`
				} `yaml:"server"`
			}
			yaml.Unmarshal([]byte(r.config), &cfg)
			addr := cfg.Server.State.Redis.Addr
			if addr == "${MCPGEN_REDIS_ADDR}" {
				addr = env["MCPGEN_REDIS_ADDR"]
			}
			if addr != tc.redisAddr {
				t.Errorf("server.state.redis.addr %q with Redis at %q", addr, tc.redisAddr)
			}
			if (r.redis != nil) != tc.redis || (r.netpol != nil) != tc.redis {
				t.Fatalf("Redis Deployment %v, NetworkPolicy %v: want %v", r.redis != nil, r.netpol != nil, tc.redis)
			}
			if tc.redis {
				redisLabels := r.redis.Spec.Template.Metadata.Labels
				if selects(r.dep.Spec.Selector.MatchLabels, redisLabels) || selects(r.svcs["r1-mcpgen"].Spec.Selector, redisLabels) {
					t.Error("mcpgen's selectors take in Redis's pods")
				}
				svc, ok := r.svcs[strings.TrimSuffix(tc.redisAddr, ":6379")]
				if !ok || !selects(svc.Spec.Selector, redisLabels) {
					t.Errorf("no Service %s over Redis's pods", tc.redisAddr)
				}
				np := r.netpol.Spec
				if !selects(np.PodSelector.MatchLabels, redisLabels) || !slices.Equal(np.PolicyTypes, []string{"Ingress"}) || len(np.Ingress) != 1 {
					t.Fatalf("the NetworkPolicy does not guard Redis's pods: %+v", np)
				}
				for _, from := range np.Ingress[0].From {
					if !selects(from.PodSelector.MatchLabels, podLabels) || selects(from.PodSelector.MatchLabels, redisLabels) {
						t.Errorf("the NetworkPolicy lets in %v: want mcpgen's pods only", from.PodSelector.MatchLabels)
					}
				}
				if len(np.Ingress[0].From) == 0 {
					t.Error("the NetworkPolicy lets everyone in")
				}
			}
			if tc.name == "own-state" && r.config != ownState {
				t.Errorf("a config with its own server.state is changed:\n%s", r.config)
			}

			// the ingress: SSE settings, session hashing when stateful
			if r.ingress != nil {
				a := r.ingress.Metadata.Annotations
				if a["nginx.ingress.kubernetes.io/proxy-buffering"] != "off" || a["nginx.ingress.kubernetes.io/proxy-read-timeout"] == "" {
					t.Errorf("ingress annotations %v: want buffering off and a read timeout", a)
				}
				if hash := a["nginx.ingress.kubernetes.io/upstream-hash-by"]; (hash == "$http_mcp_session_id") != tc.stateful {
					t.Errorf("upstream-hash-by %q, stateful %v", hash, tc.stateful)
				}
				if be := r.ingress.Spec.Rules[0].HTTP.Paths[0].Backend.Service; r.svcs[be.Name] == nil {
					t.Errorf("the ingress routes to Service %s, which the chart does not make", be.Name)
				}
			} else if tc.stateful {
				t.Error("no ingress")
			}
			if env["MCPGEN_STATELESS"] != map[bool]string{true: "false", false: "true"}[tc.stateful] {
				t.Errorf("MCPGEN_STATELESS %q, stateful %v", env["MCPGEN_STATELESS"], tc.stateful)
			}
		})
	}
}

// TestHelmChartChecksum: a change of config changes the pods' checksum
// annotation (and so rolls them); the same config keeps it.
func TestHelmChartChecksum(t *testing.T) {
	helm := helmBinary(t)
	sum := func(flags ...string) string {
		return renderChart(t, helm, flags...).dep.Spec.Template.Metadata.Annotations["checksum/config"]
	}
	a, b := sum(), sum()
	c := sum("--set-file", "config="+textFile(t, "version: 1\nserver: {name: other}\ntools: [{name: x, description: X., content: [{text: x}]}]\n"))
	d := sum("--set", "redis.enabled=true")
	// no hash of a secret on the pods: anyone who reads them could test
	// guesses of a short one
	if e := sum("--set-string", "secretEnv.STATUS_TOKEN=another"); e != a {
		t.Errorf("a secret's value changes the checksum: %q, %q", a, e)
	}
	for k := range renderChart(t, helm).dep.Spec.Template.Metadata.Annotations {
		if k != "checksum/config" {
			t.Errorf("pod annotation %s: only checksum/config is expected", k)
		}
	}
	if a == "" || a != b {
		t.Errorf("the same values give checksums %q and %q", a, b)
	}
	if c == a || d == a {
		t.Errorf("a changed config keeps the checksum %q", a)
	}
}

// TestHelmChartRefuses: values that cannot work are refused with a message.
func TestHelmChartRefuses(t *testing.T) {
	helm := helmBinary(t)
	for _, tt := range []struct {
		flags []string
		want  string
	}{
		{[]string{"--set", "image.tag=latest"}, "latest is not pinned"},
		{[]string{"--set", "existingSecret.env.TOKEN=token"}, "give existingSecret.name"},
		{[]string{"--set", "redis.enabled=true", "--set-file", "config=" + textFile(t, "version: [1\n")}, "config is not YAML"},
		{[]string{"--set-string", "config="}, "the mcpgen config is required"},
	} {
		_, err := helmTemplate(t, helm, tt.flags...)
		if err == nil || !regexp.MustCompile(regexp.QuoteMeta(tt.want)).MatchString(err.Error()) {
			t.Errorf("helm template %v: got %v, want an error with %q", tt.flags, err, tt.want)
		}
	}
}

// TestHelmChartREADME runs each helm install of the chart's README as
// helm template, from the repository's root: it must render and decode,
// and every key it sets must be one of values.yaml's (helm takes a
// misspelt key without a word).
func TestHelmChartREADME(t *testing.T) {
	helm := helmBinary(t)
	data, err := os.ReadFile(filepath.Join(chartDir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	vdata, err := os.ReadFile(filepath.Join(chartDir, "values.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var values map[string]any
	if err := yaml.Unmarshal(vdata, &values); err != nil {
		t.Fatal(err)
	}
	text := strings.ReplaceAll(string(data), "\\\n", " ")
	cmds := regexp.MustCompile(`(?m)^helm install .*$`).FindAllString(text, -1)
	if len(cmds) < 3 {
		t.Fatalf("%d helm install commands in the chart's README, want 3", len(cmds))
	}
	for _, c := range cmds {
		args := strings.Fields(c)[2:] // release, chart, flags
		for i, a := range args {
			if (a == "--set" || a == "--set-string") && i+1 < len(args) {
				key, _, _ := strings.Cut(args[i+1], "=")
				if !valuesHave(values, key) {
					t.Errorf("%s: %s is not a key of values.yaml", c, key)
				}
			}
		}
		cmd := exec.Command(helm, append([]string{"template"}, args...)...)
		cmd.Dir = "../.."
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("%s: %v\n%s", c, err, out)
			continue
		}
		if _, err := decodeManifests(out); err != nil {
			t.Errorf("%s: %v", c, err)
		}
	}
	if valuesHave(values, "image.repositry") || !valuesHave(values, "existingSecret.env.ANY") {
		t.Error("valuesHave: a misspelt key is taken, or a map's own key is not")
	}
}

// valuesHave says whether a dotted key is one of the values, or within a
// map of them that takes any key (env, secretEnv, existingSecret.env).
func valuesHave(values map[string]any, key string) bool {
	var v any = values
	for _, part := range strings.Split(key, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return false
		}
		if len(m) == 0 || isVarMap(m) {
			return true // a map of NAME: value
		}
		if v, ok = m[part]; !ok {
			return false
		}
	}
	return true
}

// isVarMap says whether a map's keys are variable names (NAME: value).
func isVarMap(m map[string]any) bool {
	for k := range m {
		if !regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`).MatchString(k) {
			return false
		}
	}
	return true
}

// TestHelmDefaultConfig: the chart's default config is the config of
// deploy/kubernetes/mcpgen.yaml, stateless read from MCPGEN_STATELESS.
func TestHelmDefaultConfig(t *testing.T) {
	vdata, err := os.ReadFile(filepath.Join(chartDir, "values.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var values struct {
		Config string `yaml:"config"`
	}
	if err := yaml.Unmarshal(vdata, &values); err != nil {
		t.Fatal(err)
	}
	const line = "stateless: ${MCPGEN_STATELESS:-true}"
	if !strings.Contains(values.Config, line) {
		t.Fatalf("the chart's default config does not say %q", line)
	}
	var plain string
	for _, o := range decodeObjects(t) {
		if cm, ok := o.(*configMap); ok && cm.Data["mcpgen.yaml"] != "" {
			plain = cm.Data["mcpgen.yaml"]
		}
	}
	var got, want any
	yaml.Unmarshal([]byte(strings.Replace(values.Config, line, "stateless: true", 1)), &got)
	yaml.Unmarshal([]byte(plain), &want)
	if diff := cmp.Diff(want, got); diff != "" || want == nil {
		t.Errorf("the chart's default config and deploy/kubernetes/mcpgen.yaml's differ (-plain +chart):\n%s", diff)
	}
}
