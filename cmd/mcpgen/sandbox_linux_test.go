package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// manifest is what the sandbox test reads of deploy/kubernetes/mcpgen.yaml.
type manifest struct {
	config       map[string]string // the ConfigMap's files
	uid          int
	gid          int
	readOnlyRoot bool
	args         []string
	env          map[string]string
	mounts       []struct {
		Name      string `yaml:"name"`
		MountPath string `yaml:"mountPath"`
		ReadOnly  bool   `yaml:"readOnly"`
	}
	port  int    // the readiness probe's port
	probe string // and path
}

// TestManifestSandbox runs the image's binary (a static build, as the
// Dockerfile makes it, named by MCPGEN_TEST_SANDBOX_BINARY) under the
// Deployment's settings without a container engine: in its own mount and
// network namespaces, chrooted into a root filesystem mounted read-only
// that holds only the binary, as the numeric user of the manifest with no
// capabilities and no_new_privs, with the ConfigMap mounted read-only and
// an emptyDir on /tmp; then the readiness probe and an MCP initialize
// must answer. It needs root (to set the sandbox up), unshare, setpriv,
// chroot, ip and curl.
func TestManifestSandbox(t *testing.T) {
	bin := os.Getenv("MCPGEN_TEST_SANDBOX_BINARY")
	if bin == "" {
		t.Skip("MCPGEN_TEST_SANDBOX_BINARY is not set")
	}
	for _, tool := range []string{"unshare", "setpriv", "chroot", "ip", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("the sandbox needs %s: %v", tool, err)
		}
	}
	chroot, _ := exec.LookPath("chroot") // run with an empty environment: no PATH
	if os.Geteuid() != 0 {
		t.Fatal("the sandbox is set up as root (the kubelet's part), then drops to the manifest's user")
	}
	m := readManifest(t)
	dir := t.TempDir()
	os.Chmod(dir, 0o755) // the unprivileged user walks through it to the root filesystem
	rootfs, config := filepath.Join(dir, "rootfs"), filepath.Join(dir, "config")
	for _, d := range []string{filepath.Join(rootfs, "usr/local/bin"), config} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(rootfs, "usr/local/bin/mcpgen"), data, 0o755)
	for name, body := range m.config {
		os.WriteFile(filepath.Join(config, name), []byte(body), 0o644)
	}
	out, err := exec.Command("unshare", "--mount", "--net", "--fork", "sh", "-c", sandboxScript(m, chroot, rootfs, config)).CombinedOutput()
	got := string(out)
	if err != nil {
		t.Fatalf("the sandbox failed: %v\n%s", err, got)
	}
	for _, want := range []string{
		rootfs + " ro,",                           // read-only root filesystem
		rootfs + "/config ro,",                    // the ConfigMap, read-only
		fmt.Sprintf("Uid:\t%d\t%d", m.uid, m.uid), // the manifest's user
		"CapEff:\t0000000000000000",
		"NoNewPrivs:\t1",
		"probe: ok",
		`"serverInfo":{"name":"platform-tools"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the sandbox's output lacks %q:\n%s", want, got)
		}
	}
}

// sandboxScript sets the mounts up as the kubelet would, starts mcpgen as
// the manifest's user, and probes it.
func sandboxScript(m *manifest, chroot, rootfs, config string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "set -eu\nip link set lo up\nmount --make-rprivate /\nmount --bind %s %s\n", rootfs, rootfs)
	for _, mt := range m.mounts {
		target := rootfs + mt.MountPath
		switch mt.Name {
		case "config":
			fmt.Fprintf(&b, "mkdir -p %s\nmount --bind %s %s\n", target, config, target)
		default: // an emptyDir
			fmt.Fprintf(&b, "mkdir -p %s\nmount -t tmpfs -o size=64m,mode=1777 tmpfs %s\n", target, target)
		}
		if mt.ReadOnly {
			fmt.Fprintf(&b, "mount -o remount,bind,ro %s\n", target)
		}
	}
	if m.readOnlyRoot {
		fmt.Fprintf(&b, "mount -o remount,bind,ro %s\n", rootfs)
	}
	fmt.Fprintf(&b, "awk '$5 == %q || $5 == %q {print $5, $6 \",\"}' /proc/self/mountinfo\n", rootfs, rootfs+"/config")
	var env []string
	for k, v := range m.env {
		env = append(env, k+"="+v)
	}
	fmt.Fprintf(&b, "env -i %s setpriv --no-new-privs --inh-caps=-all --bounding-set=-all,+sys_chroot,+setuid,+setgid "+
		"%s --userspec=%d:%d %s /usr/local/bin/mcpgen %s > %s/mcpgen.log 2>&1 &\npid=$!\n",
		strings.Join(env, " "), chroot, m.uid, m.gid, rootfs, strings.Join(m.args, " "), filepath.Dir(rootfs))
	url := fmt.Sprintf("http://127.0.0.1:%d", m.port)
	fmt.Fprintf(&b, "for i in $(seq 1 300); do curl -fs -o /dev/null %s%s && break; kill -0 $pid || break; sleep 0.2; done\n", url, m.probe)
	fmt.Fprintf(&b, "trap 'cat %s/mcpgen.log' EXIT\n", filepath.Dir(rootfs))
	fmt.Fprintf(&b, "curl -fsS -o /dev/null %s%s && echo probe: ok\n", url, m.probe)
	fmt.Fprintf(&b, "grep -E '^(Uid|CapEff|NoNewPrivs):' /proc/$pid/status\n")
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"probe","version":"1"}}}`
	fmt.Fprintf(&b, "curl -sS -H 'Host: mcp.example.com' -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' --data '%s' %s/mcp\n", init, url)
	b.WriteString("echo\nkill $pid\n")
	return b.String()
}

// readManifest reads the ConfigMap and the Deployment's container.
func readManifest(t *testing.T) *manifest {
	t.Helper()
	data, err := os.ReadFile("../../deploy/kubernetes/mcpgen.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m := &manifest{env: map[string]string{}}
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	for {
		var doc struct {
			Kind string            `yaml:"kind"`
			Data map[string]string `yaml:"data"`
			Spec struct {
				Template struct {
					Spec struct {
						SecurityContext struct {
							RunAsUser  int `yaml:"runAsUser"`
							RunAsGroup int `yaml:"runAsGroup"`
						} `yaml:"securityContext"`
						Containers []struct {
							Args  []string `yaml:"args"`
							Ports []struct {
								Name          string `yaml:"name"`
								ContainerPort int    `yaml:"containerPort"`
							} `yaml:"ports"`
							Env []struct {
								Name  string `yaml:"name"`
								Value string `yaml:"value"`
							} `yaml:"env"`
							ReadinessProbe struct {
								HTTPGet struct {
									Path string `yaml:"path"`
									Port string `yaml:"port"`
								} `yaml:"httpGet"`
							} `yaml:"readinessProbe"`
							VolumeMounts    yaml.Node `yaml:"volumeMounts"`
							SecurityContext struct {
								RunAsUser              int  `yaml:"runAsUser"`
								ReadOnlyRootFilesystem bool `yaml:"readOnlyRootFilesystem"`
							} `yaml:"securityContext"`
						} `yaml:"containers"`
					} `yaml:"spec"`
				} `yaml:"template"`
			} `yaml:"spec"`
		}
		if err := dec.Decode(&doc); err != nil {
			break
		}
		switch doc.Kind {
		case "ConfigMap":
			m.config = doc.Data
		case "Deployment":
			pod := doc.Spec.Template.Spec
			c := pod.Containers[0]
			m.uid, m.gid = max(c.SecurityContext.RunAsUser, pod.SecurityContext.RunAsUser), pod.SecurityContext.RunAsGroup
			m.readOnlyRoot, m.args, m.probe = c.SecurityContext.ReadOnlyRootFilesystem, c.Args, c.ReadinessProbe.HTTPGet.Path
			for _, p := range c.Ports {
				if p.Name == c.ReadinessProbe.HTTPGet.Port {
					m.port = p.ContainerPort
				}
			}
			for _, e := range c.Env {
				m.env[e.Name] = e.Value
				if e.Value == "" { // from a Secret
					m.env[e.Name] = "placeholder-secret"
				}
			}
			if err := c.VolumeMounts.Decode(&m.mounts); err != nil {
				t.Fatal(err)
			}
		}
	}
	if m.config == nil || m.uid == 0 || m.port == 0 {
		t.Fatalf("the manifests lack a ConfigMap, a non-root user or a probe port: %+v", m)
	}
	return m
}
