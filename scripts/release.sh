#!/usr/bin/env bash
# Release binaries of mcpgen: static (no cgo) for linux, darwin and windows on
# amd64 and arm64, and SHA256SUMS beside them.
#
#   scripts/release.sh VERSION [OUTDIR]      e.g. scripts/release.sh v0.1.0
#
# OUTDIR defaults to .cache/release/VERSION (ignored by git). Builds are
# reproducible: the same commit built with the same Go release gives the same
# bytes on any machine, in any directory. The version, commit and date are set
# at link time (mcpgen version prints them); the date is the commit's time, or
# SOURCE_DATE_EPOCH when set. Only the platforms named in PLATFORMS are built
# when it is set (e.g. PLATFORMS=linux/amd64). A tree with uncommitted changes
# is refused unless ALLOW_DIRTY=1, and its binaries then say "modified".
set -euo pipefail

usage() { echo "usage: scripts/release.sh VERSION [OUTDIR]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
version=$1
case $version in v[0-9]*) ;; *) echo "release.sh: VERSION must look like v1.2.3, not \"$version\"" >&2; exit 2 ;; esac

cd "$(dirname "$0")/.."
out=${2:-.cache/release/$version}

commit=$(git rev-parse HEAD)
modified=false
if [ -n "$(git status --porcelain)" ]; then
  if [ "${ALLOW_DIRTY:-}" != 1 ]; then
    echo "release.sh: the tree has uncommitted changes; commit them, or set ALLOW_DIRTY=1" >&2
    exit 1
  fi
  modified=true
fi
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}
date=$(date -u -d "@$epoch" +%Y-%m-%dT%H:%M:%SZ 2>/dev/null || date -u -r "$epoch" +%Y-%m-%dT%H:%M:%SZ)

# Everything that reaches the binary is fixed here, not taken from the
# caller's environment or go env: no cgo, no paths (-trimpath), no build id,
# no VCS stamp (git worktrees and clones would differ; the -X values say it).
export CGO_ENABLED=0 GOFLAGS= GOAMD64=v1 GOARM64=v8.0 GOEXPERIMENT=
ldflags="-s -w -buildid= -X main.version=$version -X main.commit=$commit -X main.date=$date"
if [ "$modified" = true ]; then ldflags="$ldflags -X main.modified=true"; fi

mkdir -p "$out"
for platform in ${PLATFORMS:-linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64 windows/arm64}; do
  goos=${platform%/*} goarch=${platform#*/}
  name=mcpgen-$version-$goos-$goarch
  [ "$goos" = windows ] && name=$name.exe
  echo "building $name" >&2
  GOOS=$goos GOARCH=$goarch go build -trimpath -buildvcs=false -ldflags "$ldflags" -o "$out/$name" ./cmd/mcpgen
done

# Checksums of every binary in OUTDIR, in the format sha256sum -c reads.
(
  cd "$out"
  rm -f SHA256SUMS
  files=$(ls mcpgen-*)
  if command -v sha256sum >/dev/null; then sha256sum $files; else shasum -a 256 $files; fi > SHA256SUMS
)
echo "$out/SHA256SUMS:" >&2
cat "$out/SHA256SUMS"
