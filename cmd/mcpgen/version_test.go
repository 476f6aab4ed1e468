package main

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"runtime/debug"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestStamp(t *testing.T) {
	vcs := func(rev, time, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{
			{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev},
			{Key: "vcs.time", Value: time}, {Key: "vcs.modified", Value: modified},
		}
	}
	platform := goruntime.GOOS + "/" + goruntime.GOARCH
	for _, tt := range []struct {
		name string
		info *debug.BuildInfo
		ld   buildStamp
		want buildStamp
	}{{
		name: "no build info",
		want: buildStamp{Version: "devel", Go: goruntime.Version(), Platform: platform},
	}, {
		name: "go install at a version",
		info: &debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Version: "v1.2.3"}},
		want: buildStamp{Version: "v1.2.3", Go: "go1.26.1", Platform: platform},
	}, {
		name: "go build in a clone with changes",
		info: &debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Version: "(devel)"},
			Settings: vcs("4775683", "2026-11-24T01:00:00Z", "true")},
		want: buildStamp{Version: "devel", Commit: "4775683", Date: "2026-11-24T01:00:00Z", Modified: true,
			Go: "go1.26.1", Platform: platform},
	}, {
		name: "link-time values win",
		info: &debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Version: "(devel)"},
			Settings: vcs("4775683", "2026-11-24T01:00:00Z", "false")},
		ld: buildStamp{Version: "v2.0.0", Commit: "abcdef0", Date: "2026-12-01T00:00:00Z", Modified: true},
		want: buildStamp{Version: "v2.0.0", Commit: "abcdef0", Date: "2026-12-01T00:00:00Z", Modified: true,
			Go: "go1.26.1", Platform: platform},
	}} {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, stamp(tt.info, tt.ld)); diff != "" {
				t.Errorf("stamp (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPrintStamp(t *testing.T) {
	var b bytes.Buffer
	printStamp(&b, buildStamp{Version: "v1.2.3", Commit: "abcdef0", Date: "2026-12-01T00:00:00Z",
		Modified: true, Go: "go1.26.1", Platform: "linux/arm64"})
	want := "mcpgen v1.2.3\n" +
		"commit: abcdef0 (modified)\n" +
		"date:   2026-12-01T00:00:00Z\n" +
		"go:     go1.26.1 linux/arm64\n"
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("text (-want +got):\n%s", diff)
	}
}

// TestVersionLinkTime builds mcpgen with the -X flags scripts/release.sh
// passes and checks that version --json reports them. (Without the release's
// -trimpath, which would compile every package again.)
func TestVersionLinkTime(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a binary")
	}
	bin := filepath.Join(t.TempDir(), "mcpgen")
	ldflags := "-X main.version=v9.8.7 -X main.commit=0123456789abcdef -X main.date=2026-01-02T03:04:05Z"
	build := exec.Command("go", "build", "-buildvcs=false", "-ldflags", ldflags, "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version", "--json").Output()
	if err != nil {
		t.Fatalf("mcpgen version --json: %v", err)
	}
	var got buildStamp
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("version --json printed %q: %v", out, err)
	}
	want := buildStamp{Version: "v9.8.7", Commit: "0123456789abcdef", Date: "2026-01-02T03:04:05Z",
		Go: goruntime.Version(), Platform: goruntime.GOOS + "/" + goruntime.GOARCH}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("version --json (-want +got):\n%s", diff)
	}
}
