package load

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const overlayBase = `version: 1
overlays: {dev: mcpgen.dev.yaml, prod: mcpgen.prod.yaml}
env_file: .env
server:
  name: shop
  instructions: Base instructions.
secrets: [A_USER]
backends:
  api: {kind: http, base_url: "http://localhost:8080", timeout: 5s}
tools:
  - {name: a, description: Base a., content: [{text: a}]}
  - {name: b, description: Base b., content: [{text: b}]}
`

// TestOverlay merges the overlay MCPGEN_ENV names: mappings key by key,
// named entries by name, other values replaced, ~ clearing a setting; no
// overlay without MCPGEN_ENV, and MCPGEN_ENV may come from the env_file.
func TestOverlay(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{
		"mcpgen.yaml": overlayBase,
		"mcpgen.prod.yaml": `server:
  name: shop-prod
  instructions: ~
secrets: [B_USER]
backends:
  api: {base_url: "https://api.example.com"}
tools:
  - {name: b, description: Prod b.}
  - {name: c, description: Prod c., content: [{text: c}]}
`,
		"mcpgen.dev.yaml": "tools:\n  - {name: d, description: Dev d., content: [{text: d}]}\n",
		".env":            "MCPGEN_ENV=dev\n",
	})
	type summary struct {
		Name, Instructions, BaseURL, Overlay string
		Secrets, Tools                       []string
	}
	load := func(env map[string]string) summary {
		files, ds := Files([]string{filepath.Join(dir, "mcpgen.yaml")}, Options{LookupEnv: envMap(env)})
		if len(ds) > 0 {
			t.Fatal(ds)
		}
		c := files[0].Config
		s := summary{Name: c.Server.Name, Instructions: c.Server.Instructions, Secrets: c.Secrets,
			BaseURL: Field(c.Backends["api"].Body, "base_url").Value, Overlay: filepath.Base(files[0].Overlay)}
		for _, tl := range c.Tools {
			s.Tools = append(s.Tools, tl.Name+": "+tl.Description)
		}
		return s
	}
	prod := summary{Name: "shop-prod", BaseURL: "https://api.example.com", Overlay: "mcpgen.prod.yaml",
		Secrets: []string{"B_USER"}, Tools: []string{"a: Base a.", "b: Prod b.", "c: Prod c."}}
	if diff := cmp.Diff(prod, load(map[string]string{"MCPGEN_ENV": "prod"})); diff != "" {
		t.Errorf("prod (-want +got):\n%s", diff)
	}
	dev := summary{Name: "shop", Instructions: "Base instructions.", BaseURL: "http://localhost:8080", Overlay: "mcpgen.dev.yaml",
		Secrets: []string{"A_USER"}, Tools: []string{"a: Base a.", "b: Base b.", "d: Dev d."}}
	if diff := cmp.Diff(dev, load(nil)); diff != "" { // MCPGEN_ENV=dev from .env
		t.Errorf("dev (-want +got):\n%s", diff)
	}
	base := dev
	base.Overlay, base.Tools = ".", base.Tools[:2]
	if diff := cmp.Diff(base, load(map[string]string{"MCPGEN_ENV": ""})); diff != "" {
		t.Errorf("no overlay (-want +got):\n%s", diff)
	}
}

// TestOverlayErrors: a mistake in an overlay is reported at the overlay's
// own line; a wrong environment or overlay at the base's.
func TestOverlayErrors(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{
		"typo.yaml":     "tools:\n  - {name: a, descripton: x}\n",
		"syntax.yaml":   "tools: [\n",
		"include.yaml":  "include: [x.yaml]\nenv_file: .env\n",
		"list.yaml":     "- a\n",
		"var-path.yaml": "version: 1\noverlays: {prod: \"${DIR}/p.yaml\"}\n",
	})
	for _, tt := range []struct{ name, env, overlay, want string }{
		{"unknown field", "prod", "typo.yaml", "typo.yaml:2:15: tools[0]: unknown field \"descripton\"; did you mean \"description\"?"},
		{"syntax", "prod", "syntax.yaml", "syntax.yaml:1:8: yaml: did not find expected node content"},
		{"include", "prod", "include.yaml", "include.yaml:1:1: include: an overlay cannot set include; set it in the file the overlay is merged into"},
		{"env_file", "prod", "include.yaml", "include.yaml:2:1: env_file: an overlay cannot set env_file"},
		{"not a mapping", "prod", "list.yaml", "list.yaml:1:1: a config file is a mapping"},
		{"missing", "prod", "nope.yaml", "mcpgen.yaml:2:33: overlays.prod: {DIR}/nope.yaml: cannot read file: no such file or directory"},
		{"device", "prod", "/dev/zero", "overlays.prod: /dev/zero: cannot read file: not a regular file"},
		{"typo in MCPGEN_ENV", "prdo", "typo.yaml", `mcpgen.yaml:2:1: overlays: MCPGEN_ENV is "prdo", which names no overlay; did you mean "prod"?`},
		{"unknown environment", "staging", "typo.yaml", `overlays: MCPGEN_ENV is "staging", which names no overlay; the environments are dev, prod`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ds := loadIn(t, dir, "overlays: {dev: dev.yaml, prod: "+tt.overlay+"}", map[string]string{"MCPGEN_ENV": tt.env})
			wantDiag(t, ds, strings.ReplaceAll(tt.want, "{DIR}", dir))
		})
	}
	_, ds := Files([]string{filepath.Join(dir, "var-path.yaml")}, Options{LookupEnv: envMap(map[string]string{"MCPGEN_ENV": "prod", "DIR": dir})})
	wantDiag(t, ds, "var-path.yaml:2:18: overlays.prod: an overlay's path is read before variables are expanded")
}

// TestOverlaySplit: in a config split over files, an environment that
// some files' overlays name leaves the others as they are; one that no
// file's overlays name is reported at each.
func TestOverlaySplit(t *testing.T) {
	t.Parallel()
	dir := writeFiles(t, map[string]string{
		"mcpgen.yaml":   "version: 1\ninclude: [more.yaml]\noverlays: {prod: prod.yaml}\n",
		"prod.yaml":     "server: {name: prod}\n",
		"more.yaml":     "version: 1\noverlays: {dev: more.dev.yaml}\n",
		"more.dev.yaml": "server: {name: dev}\n",
	})
	files, ds := Files([]string{filepath.Join(dir, "mcpgen.yaml")}, Options{LookupEnv: envMap(map[string]string{"MCPGEN_ENV": "prod"})})
	if len(ds) > 0 || len(files) != 2 || files[0].Config.Server.Name != "prod" || files[1].Overlay != "" {
		t.Errorf("MCPGEN_ENV=prod: %v", ds)
	}
	_, ds = Files([]string{filepath.Join(dir, "mcpgen.yaml")}, Options{LookupEnv: envMap(map[string]string{"MCPGEN_ENV": "deb"})})
	wantDiag(t, ds, "mcpgen.yaml:3:1: overlays: MCPGEN_ENV is \"deb\", which names no overlay; the environments are prod")
	wantDiag(t, ds, "more.yaml:2:1: overlays: MCPGEN_ENV is \"deb\", which names no overlay; did you mean \"dev\"?")
}
