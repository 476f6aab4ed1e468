package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// decodeManifests decodes every object of a YAML stream into the type kinds
// gives its apiVersion and kind, strictly: a field that type does not name
// (misspelt, or new to the manifests and not yet here), a value of the
// wrong type and a kind the table does not hold are errors, with the line.
func decodeManifests(data []byte) ([]any, error) {
	var heads []string
	for dec := yaml.NewDecoder(bytes.NewReader(data)); ; {
		var h struct {
			APIVersion string `yaml:"apiVersion"`
			Kind       string `yaml:"kind"`
		}
		err := dec.Decode(&h)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		heads = append(heads, h.APIVersion+" "+h.Kind)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var objs []any
	for _, h := range heads {
		newObj, ok := kinds[h]
		if !ok {
			version, kind, _ := strings.Cut(h, " ")
			return objs, fmt.Errorf("no kind %q is registered for version %q", kind, version)
		}
		obj := newObj()
		if err := dec.Decode(obj); err != nil {
			return objs, fmt.Errorf("%s: %w", h, err)
		}
		objs = append(objs, obj)
	}
	return objs, nil
}

// TestKubernetesManifests validates every manifest under deploy/kubernetes.
func TestKubernetesManifests(t *testing.T) {
	paths, err := filepath.Glob("../../deploy/kubernetes/*.yaml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no manifests: %v", err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		objs, err := decodeManifests(data)
		if err != nil {
			t.Errorf("%s: %v", p, err)
		}
		if len(objs) == 0 {
			t.Errorf("%s holds no object", p)
		}
	}
	// the check can fail: a misspelt field, a wrong type, an unknown kind
	// and a malformed quantity are refused
	for _, tt := range []struct{ doc, want string }{
		{"apiVersion: v1\nkind: Service\nmetadata: {name: x}\nspec: {ports: [{port: 80}], selektor: {app: x}}\n", "line 4: field selektor not found"},
		{"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec: {replicas: three}\n", "cannot unmarshal !!str `three`"},
		{"apiVersion: v1\nkind: Pood\nmetadata: {name: x}\n", `no kind "Pood" is registered`},
		{"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n---\napiVersion: v1\nkind: Pood\n", `no kind "Pood" is registered`},
		{"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec:\n  template:\n    spec:\n      containers:\n" +
			"        - {name: x, resources: {limits: {memory: 256MB}}}\n", `quantity "256MB"`},
		{"apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: x}\nspec: {maxUnavailable: [1]}\n", "an integer or a string"},
	} {
		if _, err := decodeManifests([]byte(tt.doc)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("decoding %q: got %v, want %q", tt.doc, err, tt.want)
		}
	}
}

// decodeObjects decodes every object of the manifests under
// deploy/kubernetes.
func decodeObjects(t *testing.T) []any {
	t.Helper()
	paths, _ := filepath.Glob("../../deploy/kubernetes/*.yaml")
	var all []any
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		objs, err := decodeManifests(data)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		all = append(all, objs...)
	}
	return all
}

// TestKubernetesScaleOut checks that the manifests hold together for
// scaling out: the autoscaler scales mcpgen's Deployment and keeps at
// least two replicas, the disruption budget selects its pods and leaves
// some up, and readiness is /readyz.
func TestKubernetesScaleOut(t *testing.T) {
	var dep *deployment
	var hpa *autoscaler
	var pdb *disruptionBudget
	for _, o := range decodeObjects(t) {
		switch o := o.(type) {
		case *deployment:
			if o.Metadata.Name == "mcpgen" {
				dep = o
			}
		case *autoscaler:
			hpa = o
		case *disruptionBudget:
			pdb = o
		}
	}
	if dep == nil || hpa == nil || pdb == nil {
		t.Fatalf("want the mcpgen Deployment, a HorizontalPodAutoscaler and a PodDisruptionBudget; got %v, %v, %v", dep != nil, hpa != nil, pdb != nil)
	}
	if ref := hpa.Spec.ScaleTargetRef; ref.Kind != "Deployment" || ref.Name != dep.Metadata.Name {
		t.Errorf("the autoscaler scales %s %s, want Deployment %s", ref.Kind, ref.Name, dep.Metadata.Name)
	}
	if hpa.Spec.MinReplicas == nil || *hpa.Spec.MinReplicas < 2 || hpa.Spec.MaxReplicas <= *hpa.Spec.MinReplicas {
		t.Errorf("autoscaler bounds %v..%d: want at least 2 replicas, and room to grow", hpa.Spec.MinReplicas, hpa.Spec.MaxReplicas)
	}
	labels := dep.Spec.Template.Metadata.Labels
	for k, v := range pdb.Spec.Selector.MatchLabels {
		if labels[k] != v {
			t.Errorf("the disruption budget selects %s=%s, which the Deployment's pods do not carry (%v)", k, v, labels)
		}
	}
	if mu := pdb.Spec.MaxUnavailable; mu == nil || mu.IntValue() < 1 || mu.IntValue() >= int(*hpa.Spec.MinReplicas) {
		t.Errorf("the disruption budget allows %v replicas down: want at least 1 (or nodes never drain) and fewer than the minimum", mu)
	}
	if p := dep.Spec.Template.Spec.Containers[0].ReadinessProbe; p == nil || p.HTTPGet == nil || p.HTTPGet.Path != "/readyz" {
		t.Error("the readiness probe is not /readyz")
	}
}
