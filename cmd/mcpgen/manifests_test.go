package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	kjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	k8syaml "k8s.io/apimachinery/pkg/util/yaml"
)

// k8sDecoder decodes Kubernetes objects strictly, with the API's own Go
// types: an unknown or duplicate field, a value of the wrong type or a
// kind the API does not have is an error. The schemas kubeconform uses
// are downloaded from the internet; these types are the source they are
// generated from, and come through the Go module proxy.
func k8sDecoder(t *testing.T) k8sruntime.Decoder {
	t.Helper()
	scheme := k8sruntime.NewScheme()
	for _, add := range []func(*k8sruntime.Scheme) error{corev1.AddToScheme, appsv1.AddToScheme,
		networkingv1.AddToScheme, policyv1.AddToScheme, autoscalingv2.AddToScheme} {
		if err := add(scheme); err != nil {
			t.Fatal(err)
		}
	}
	return kjson.NewSerializerWithOptions(kjson.DefaultMetaFactory, scheme, scheme,
		kjson.SerializerOptions{Yaml: true, Strict: true})
}

// decodeManifests decodes every document of a YAML stream, returning the
// kinds decoded and the first error.
func decodeManifests(dec k8sruntime.Decoder, data []byte) ([]string, error) {
	objs, err := decodeObjectsOf(dec, data)
	var kinds []string
	for _, o := range objs {
		kinds = append(kinds, o.GetObjectKind().GroupVersionKind().Kind)
	}
	return kinds, err
}

// decodeObjectsOf decodes every document of a YAML stream, returning the
// objects decoded and the first error.
func decodeObjectsOf(dec k8sruntime.Decoder, data []byte) ([]k8sruntime.Object, error) {
	r := k8syaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var objs []k8sruntime.Object
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return objs, nil
		}
		if err != nil {
			return objs, err
		}
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		obj, gvk, err := dec.Decode(doc, nil, nil)
		if err != nil {
			return objs, err
		}
		obj.GetObjectKind().SetGroupVersionKind(*gvk)
		objs = append(objs, obj)
	}
}

// TestKubernetesManifests validates every manifest under deploy/kubernetes.
func TestKubernetesManifests(t *testing.T) {
	dec := k8sDecoder(t)
	paths, err := filepath.Glob("../../deploy/kubernetes/*.yaml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no manifests: %v", err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		kinds, err := decodeManifests(dec, data)
		if err != nil {
			t.Errorf("%s: %v", p, err)
		}
		if len(kinds) == 0 {
			t.Errorf("%s holds no object", p)
		}
	}
	// the check can fail: a misspelt field and a wrong type are refused
	for _, tt := range []struct{ doc, want string }{
		{"apiVersion: v1\nkind: Service\nmetadata: {name: x}\nspec: {ports: [{port: 80}], selektor: {app: x}}\n", `unknown field "spec.selektor"`},
		{"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec: {replicas: three}\n", "cannot unmarshal string"},
		{"apiVersion: v1\nkind: Pood\nmetadata: {name: x}\n", `no kind "Pood" is registered`},
	} {
		if _, err := decodeManifests(dec, []byte(tt.doc)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("decoding %q: got %v, want %q", tt.doc, err, tt.want)
		}
	}
}

// decodeObjects decodes every object of the manifests under
// deploy/kubernetes.
func decodeObjects(t *testing.T) []k8sruntime.Object {
	t.Helper()
	dec := k8sDecoder(t)
	paths, _ := filepath.Glob("../../deploy/kubernetes/*.yaml")
	var all []k8sruntime.Object
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		objs, err := decodeObjectsOf(dec, data)
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
	var dep *appsv1.Deployment
	var hpa *autoscalingv2.HorizontalPodAutoscaler
	var pdb *policyv1.PodDisruptionBudget
	for _, o := range decodeObjects(t) {
		switch o := o.(type) {
		case *appsv1.Deployment:
			if o.Name == "mcpgen" {
				dep = o
			}
		case *autoscalingv2.HorizontalPodAutoscaler:
			hpa = o
		case *policyv1.PodDisruptionBudget:
			pdb = o
		}
	}
	if dep == nil || hpa == nil || pdb == nil {
		t.Fatalf("want the mcpgen Deployment, a HorizontalPodAutoscaler and a PodDisruptionBudget; got %v, %v, %v", dep != nil, hpa != nil, pdb != nil)
	}
	if ref := hpa.Spec.ScaleTargetRef; ref.Kind != "Deployment" || ref.Name != dep.Name {
		t.Errorf("the autoscaler scales %s %s, want Deployment %s", ref.Kind, ref.Name, dep.Name)
	}
	if hpa.Spec.MinReplicas == nil || *hpa.Spec.MinReplicas < 2 || hpa.Spec.MaxReplicas <= *hpa.Spec.MinReplicas {
		t.Errorf("autoscaler bounds %v..%d: want at least 2 replicas, and room to grow", hpa.Spec.MinReplicas, hpa.Spec.MaxReplicas)
	}
	labels := dep.Spec.Template.Labels
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
