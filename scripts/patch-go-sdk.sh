#!/usr/bin/env bash
# Re-creates runtime/internal/gosdk: the go-sdk's library code (no tests,
# examples or docs) at the version go.mod requires, with
# runtime/internal/gosdk.patch applied. go.mod serves it through a `replace`.
#
#   scripts/patch-go-sdk.sh            # the version go.mod requires
#   scripts/patch-go-sdk.sh v1.9.0     # move to another version
#   scripts/patch-go-sdk.sh diff       # after editing the copy: rewrite the
#                                      # patch as the copy's diff to upstream
#
# Before copying it checks the patch against the new version: when upstream
# has fixed what the patch fixes (TestUpstreamStillDecodesIntoFreshBuffers
# in runtime/internal/gosdktest says how to tell), drop the patch, the copy and
# the replace instead. Then it runs the SDK's own tests with the patch applied.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mod=github.com/modelcontextprotocol/go-sdk
dest=runtime/internal/gosdk
patchfile=runtime/internal/gosdk.patch

if [[ ${1:-} == diff ]]; then
  version=$(cat "$dest/VERSION")
  dir=$(GOFLAGS=-mod=mod go mod download -json "$mod@$version" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
  [[ -d $dir ]] || { echo "cannot download $mod@$version" >&2; exit 1; }
  (cd "$dest" && find . -name '*.go' | sed 's|^\./||' | LC_ALL=C sort | while read -r f; do
    cmp -s "$f" "$dir/$f" || diff -u --label "a/$f" --label "b/$f" "$dir/$f" "$f" || true
  done) >"$patchfile"
  echo "$patchfile: the copy's diff to $mod $version" >&2
  exit 0
fi
version=${1:-$(go list -m -f '{{.Version}}' "$mod")}

dir=$(GOFLAGS=-mod=mod go mod download -json "$mod@$version" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
[[ -d $dir ]] || { echo "cannot download $mod@$version" >&2; exit 1; }

# The SDK's own tests, on a whole copy with the patch applied.
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
cp -r "$dir" "$tmp/sdk" && chmod -R u+w "$tmp/sdk"
if ! patch -d "$tmp/sdk" -p1 --forward --quiet <"$patchfile"; then
  echo "the patch does not apply to $version: see whether upstream fixed the decoder; if so drop the patch" >&2
  exit 1
fi

# These tests race short timers (a 10 ms keep-alive, a session timeout)
# against the client's handshake; on a busy machine they fail without the
# patch too. SKIP_SDK_TESTS=1 skips the SDK's tests altogether.
flaky='TestServerTransportCleanup$|TestStreamableStateful_DiscoverDoesNotLeakSession$|TestStreamableSessionTimeout$'
if [[ -z ${SKIP_SDK_TESTS:-} ]]; then
  echo "running the SDK's tests with the patch applied" >&2
  (cd "$tmp/sdk" && go test -skip "$flaky" ./internal/json/ ./internal/jsonrpc2/ ./jsonrpc/ ./mcp/ ./auth/...)
fi

# The copy: library code only, and the module's go.mod and licence.
rm -rf "$dest"
mkdir -p "$dest"
cp "$tmp/sdk/go.mod" "$tmp/sdk/LICENSE" "$dest/"
(cd "$tmp/sdk" && find mcp jsonrpc auth oauthex internal/authutil internal/json internal/jsonrpc2 \
  internal/mcpgodebug internal/util internal/xcontext -name '*.go' ! -name '*_test.go') |
  while read -r f; do mkdir -p "$dest/$(dirname "$f")" && cp "$tmp/sdk/$f" "$dest/$f"; done
echo "$version" >"$dest/VERSION"
go mod edit -require="$mod@$version" -replace="$mod=./$dest"
go mod tidy
go build ./...
echo "$dest is $mod $version with $(basename "$patchfile") applied" >&2
