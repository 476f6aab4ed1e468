package main

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
)

// TestDeploySecurity checks that the Dockerfile's final user is numeric and
// that every container of the Kubernetes manifests runs as that user, not as
// root, with a read-only root filesystem: the kubelet refuses runAsNonRoot
// for an image whose user is a name, and a manifest that says another user
// than the image would start a process that cannot read what the image holds.
func TestDeploySecurity(t *testing.T) {
	uid := dockerfileUser(t)
	data, err := os.ReadFile("../../deploy/kubernetes/mcpgen.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	var seen int
	for {
		var doc struct {
			Kind string `yaml:"kind"`
			Spec struct {
				Template struct {
					Spec struct {
						SecurityContext securityContext `yaml:"securityContext"`
						Containers      []struct {
							Name            string          `yaml:"name"`
							SecurityContext securityContext `yaml:"securityContext"`
						} `yaml:"containers"`
					} `yaml:"spec"`
				} `yaml:"template"`
			} `yaml:"spec"`
		}
		if err := dec.Decode(&doc); err != nil {
			break
		}
		if doc.Kind != "Deployment" {
			continue
		}
		pod := doc.Spec.Template.Spec
		for _, c := range pod.Containers {
			seen++
			got := c.SecurityContext.over(pod.SecurityContext)
			want := securityContext{RunAsNonRoot: ptr(true), RunAsUser: &uid,
				ReadOnlyRootFilesystem: ptr(true), AllowPrivilegeEscalation: ptr(false)}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("container %s: security context (-want +got):\n%s", c.Name, diff)
			}
		}
	}
	if seen == 0 {
		t.Fatal("no Deployment container in the manifests")
	}
}

// securityContext holds the fields of a Kubernetes security context that
// the test checks; unset fields are nil.
type securityContext struct {
	RunAsNonRoot             *bool `yaml:"runAsNonRoot"`
	RunAsUser                *int  `yaml:"runAsUser"`
	ReadOnlyRootFilesystem   *bool `yaml:"readOnlyRootFilesystem"`
	AllowPrivilegeEscalation *bool `yaml:"allowPrivilegeEscalation"`
}

// over returns the container context c with the pod context's values where
// c does not set them, as the kubelet applies them.
func (c securityContext) over(pod securityContext) securityContext {
	if c.RunAsNonRoot == nil {
		c.RunAsNonRoot = pod.RunAsNonRoot
	}
	if c.RunAsUser == nil {
		c.RunAsUser = pod.RunAsUser
	}
	return c
}

func ptr[T any](v T) *T { return &v }

// dockerfileUser returns the numeric user id of the Dockerfile's last USER.
func dockerfileUser(t *testing.T) int {
	t.Helper()
	data, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	users := regexp.MustCompile(`(?m)^USER\s+(\S+)`).FindAllStringSubmatch(string(data), -1)
	if len(users) == 0 {
		t.Fatal("the Dockerfile sets no USER: the image would run as root")
	}
	last := users[len(users)-1][1]
	m := regexp.MustCompile(`^([0-9]+)(:[0-9]+)?$`).FindStringSubmatch(last)
	if m == nil {
		t.Fatalf("the Dockerfile's USER is %q: it must be numeric (uid:gid) for runAsNonRoot", last)
	}
	uid, _ := strconv.Atoi(m[1])
	if uid == 0 {
		t.Fatal("the Dockerfile's USER is root")
	}
	return uid
}
