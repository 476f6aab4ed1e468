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
	r := k8syaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var kinds []string
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return kinds, nil
		}
		if err != nil {
			return kinds, err
		}
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		_, gvk, err := dec.Decode(doc, nil, nil)
		if err != nil {
			return kinds, err
		}
		kinds = append(kinds, gvk.Kind)
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
