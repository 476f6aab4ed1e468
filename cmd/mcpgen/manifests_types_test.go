package main

import (
	"fmt"
	"regexp"
	"strconv"

	"gopkg.in/yaml.v3"
)

// The Kubernetes objects of deploy/kubernetes, with the fields the manifests
// set, named and typed as in the Kubernetes API reference. They are decoded
// strictly, so a field missing here fails TestKubernetesManifests: add it
// here, as the API reference spells and types it.

// kinds makes a fresh object for each apiVersion and kind the manifests use.
var kinds = map[string]func() any{
	"v1 ConfigMap":                           func() any { return new(configMap) },
	"v1 Secret":                              func() any { return new(secret) },
	"v1 Service":                             func() any { return new(service) },
	"apps/v1 Deployment":                     func() any { return new(deployment) },
	"networking.k8s.io/v1 Ingress":           func() any { return new(ingress) },
	"networking.k8s.io/v1 NetworkPolicy":     func() any { return new(networkPolicy) },
	"autoscaling/v2 HorizontalPodAutoscaler": func() any { return new(autoscaler) },
	"policy/v1 PodDisruptionBudget":          func() any { return new(disruptionBudget) },
}

type (
	service          = object[serviceSpec]
	deployment       = object[deploymentSpec]
	ingress          = object[ingressSpec]
	networkPolicy    = object[networkPolicySpec]
	autoscaler       = object[autoscalerSpec]
	disruptionBudget = object[disruptionBudgetSpec]
)

// object is a Kubernetes object with a spec.
type object[S any] struct {
	APIVersion string     `yaml:"apiVersion"`
	Kind       string     `yaml:"kind"`
	Metadata   objectMeta `yaml:"metadata"`
	Spec       S          `yaml:"spec"`
}

type configMap struct {
	APIVersion string            `yaml:"apiVersion"`
	Kind       string            `yaml:"kind"`
	Metadata   objectMeta        `yaml:"metadata"`
	Data       map[string]string `yaml:"data"`
}

type secret struct {
	APIVersion string            `yaml:"apiVersion"`
	Kind       string            `yaml:"kind"`
	Metadata   objectMeta        `yaml:"metadata"`
	Type       string            `yaml:"type"`
	Data       map[string]string `yaml:"data"`
	StringData map[string]string `yaml:"stringData"`
}

type objectMeta struct {
	Name        string            `yaml:"name"`
	Labels      map[string]string `yaml:"labels"`
	Annotations map[string]string `yaml:"annotations"`
}

type labelSelector struct {
	MatchLabels map[string]string `yaml:"matchLabels"`
}

type deploymentSpec struct {
	Replicas *int32        `yaml:"replicas"`
	Selector labelSelector `yaml:"selector"`
	Template struct {
		Metadata objectMeta `yaml:"metadata"`
		Spec     podSpec    `yaml:"spec"`
	} `yaml:"template"`
}

type podSpec struct {
	SecurityContext struct {
		RunAsNonRoot   *bool  `yaml:"runAsNonRoot"`
		RunAsUser      *int64 `yaml:"runAsUser"`
		RunAsGroup     *int64 `yaml:"runAsGroup"`
		SeccompProfile struct {
			Type string `yaml:"type"`
		} `yaml:"seccompProfile"`
	} `yaml:"securityContext"`
	ImagePullSecrets []struct {
		Name string `yaml:"name"`
	} `yaml:"imagePullSecrets"`
	Containers                    []container `yaml:"containers"`
	TerminationGracePeriodSeconds *int64      `yaml:"terminationGracePeriodSeconds"`
	Volumes                       []struct {
		Name      string `yaml:"name"`
		ConfigMap *struct {
			Name string `yaml:"name"`
		} `yaml:"configMap"`
		EmptyDir *struct {
			SizeLimit quantity `yaml:"sizeLimit"`
		} `yaml:"emptyDir"`
	} `yaml:"volumes"`
}

type container struct {
	Name            string   `yaml:"name"`
	Image           string   `yaml:"image"`
	ImagePullPolicy string   `yaml:"imagePullPolicy"`
	Args            []string `yaml:"args"`
	Ports           []struct {
		Name          string `yaml:"name"`
		ContainerPort int32  `yaml:"containerPort"`
	} `yaml:"ports"`
	Env []struct {
		Name      string `yaml:"name"`
		Value     string `yaml:"value"`
		ValueFrom *struct {
			SecretKeyRef *struct {
				Name string `yaml:"name"`
				Key  string `yaml:"key"`
			} `yaml:"secretKeyRef"`
		} `yaml:"valueFrom"`
	} `yaml:"env"`
	ReadinessProbe *probe `yaml:"readinessProbe"`
	LivenessProbe  *probe `yaml:"livenessProbe"`
	Resources      struct {
		Requests map[string]quantity `yaml:"requests"`
		Limits   map[string]quantity `yaml:"limits"`
	} `yaml:"resources"`
	VolumeMounts []struct {
		Name      string `yaml:"name"`
		MountPath string `yaml:"mountPath"`
		ReadOnly  bool   `yaml:"readOnly"`
	} `yaml:"volumeMounts"`
	SecurityContext struct {
		RunAsNonRoot             *bool  `yaml:"runAsNonRoot"`
		RunAsUser                *int64 `yaml:"runAsUser"`
		ReadOnlyRootFilesystem   *bool  `yaml:"readOnlyRootFilesystem"`
		AllowPrivilegeEscalation *bool  `yaml:"allowPrivilegeEscalation"`
		Capabilities             struct {
			Drop []string `yaml:"drop"`
		} `yaml:"capabilities"`
	} `yaml:"securityContext"`
}

type probe struct {
	HTTPGet *struct {
		Path string      `yaml:"path"`
		Port intOrString `yaml:"port"`
	} `yaml:"httpGet"`
	Exec *struct {
		Command []string `yaml:"command"`
	} `yaml:"exec"`
	TCPSocket *struct {
		Port intOrString `yaml:"port"`
	} `yaml:"tcpSocket"`
}

type serviceSpec struct {
	Selector map[string]string `yaml:"selector"`
	Ports    []struct {
		Name       string      `yaml:"name"`
		Port       int32       `yaml:"port"`
		TargetPort intOrString `yaml:"targetPort"`
	} `yaml:"ports"`
}

type ingressSpec struct {
	IngressClassName string `yaml:"ingressClassName"`
	TLS              []struct {
		Hosts      []string `yaml:"hosts"`
		SecretName string   `yaml:"secretName"`
	} `yaml:"tls"`
	Rules []struct {
		Host string `yaml:"host"`
		HTTP struct {
			Paths []struct {
				Path     string `yaml:"path"`
				PathType string `yaml:"pathType"`
				Backend  struct {
					Service struct {
						Name string `yaml:"name"`
						Port struct {
							Name   string `yaml:"name"`
							Number int32  `yaml:"number"`
						} `yaml:"port"`
					} `yaml:"service"`
				} `yaml:"backend"`
			} `yaml:"paths"`
		} `yaml:"http"`
	} `yaml:"rules"`
}

type networkPolicySpec struct {
	PodSelector labelSelector `yaml:"podSelector"`
	PolicyTypes []string      `yaml:"policyTypes"`
	Ingress     []struct {
		From []struct {
			PodSelector labelSelector `yaml:"podSelector"`
		} `yaml:"from"`
		Ports []struct {
			Port intOrString `yaml:"port"`
		} `yaml:"ports"`
	} `yaml:"ingress"`
}

type autoscalerSpec struct {
	ScaleTargetRef struct {
		APIVersion string `yaml:"apiVersion"`
		Kind       string `yaml:"kind"`
		Name       string `yaml:"name"`
	} `yaml:"scaleTargetRef"`
	MinReplicas *int32 `yaml:"minReplicas"`
	MaxReplicas int32  `yaml:"maxReplicas"`
	Metrics     []struct {
		Type     string `yaml:"type"`
		Resource struct {
			Name   string `yaml:"name"`
			Target struct {
				Type               string `yaml:"type"`
				AverageUtilization int32  `yaml:"averageUtilization"`
			} `yaml:"target"`
		} `yaml:"resource"`
	} `yaml:"metrics"`
	Behavior struct {
		ScaleDown struct {
			StabilizationWindowSeconds int32 `yaml:"stabilizationWindowSeconds"`
			Policies                   []struct {
				Type          string `yaml:"type"`
				Value         int32  `yaml:"value"`
				PeriodSeconds int32  `yaml:"periodSeconds"`
			} `yaml:"policies"`
		} `yaml:"scaleDown"`
	} `yaml:"behavior"`
}

type disruptionBudgetSpec struct {
	MaxUnavailable *intOrString  `yaml:"maxUnavailable"`
	Selector       labelSelector `yaml:"selector"`
}

// intOrString is a port or a count given as a number or as a name or
// percentage, as Kubernetes' IntOrString.
type intOrString struct {
	s     string
	i     int
	isInt bool
}

// UnmarshalYAML takes an integer or a string, nothing else.
func (v *intOrString) UnmarshalYAML(n *yaml.Node) error {
	switch {
	case n.Kind == yaml.ScalarNode && n.Tag == "!!int":
		v.isInt = true
		return n.Decode(&v.i)
	case n.Kind == yaml.ScalarNode && n.Tag == "!!str":
		v.s = n.Value
		return nil
	}
	return fmt.Errorf("line %d: want an integer or a string, got %s", n.Line, n.Tag)
}

// IntValue is the integer, or 0 for a string.
func (v *intOrString) IntValue() int { return v.i }

func (v *intOrString) String() string {
	if v.isInt {
		return strconv.Itoa(v.i)
	}
	return v.s
}

// quantity is an amount of CPU or memory, as Kubernetes' resource.Quantity
// reads it: a number with an optional decimal (m, k, M, G...) or binary
// (Ki, Mi, Gi...) suffix. 256MB is not one.
type quantity string

var quantityRE = regexp.MustCompile(`^[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+|[numkMGTPE]|[KMGTPE]i)?$`)

// UnmarshalYAML refuses what Kubernetes would not parse as a quantity.
func (q *quantity) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode || !quantityRE.MatchString(n.Value) {
		return fmt.Errorf("line %d: quantity %q: want a number with a suffix such as m, Mi or Gi", n.Line, n.Value)
	}
	*q = quantity(n.Value)
	return nil
}
