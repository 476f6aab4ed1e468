#!/usr/bin/env bash
# Builds the repository's Dockerfile with buildah where no container
# registry can be reached: the two base images it pins by digest are
# replaced, through its build arguments GO_IMAGE and RUNTIME_IMAGE, by
# stand-ins of the same shape made from this machine's files:
#   - the build stage's: this machine's Go toolchain at /usr/local/go on
#     PATH, GOPATH=/go, and /bin/sh, as the golang image has them; the
#     host's module cache is mounted at /go/pkg/mod and no proxy is
#     reachable (GOPROXY=off), so every module the build needs must be
#     in go.sum and downloaded by the Dockerfile's own `go mod download`;
#   - the runtime stage's: an otherwise empty root filesystem with
#     /etc/passwd and /etc/group naming nonroot 65532, CA certificates,
#     time zones and /tmp, as distroless/static has them.
# Every instruction of the Dockerfile itself runs as written.
#   scripts/image-ci.sh IMAGE_NAME
# It needs root and buildah (Debian's package); storage is vfs and
# isolation chroot, which need no kernel overlay, no daemon and no user
# namespaces.
set -euo pipefail
cd "$(dirname "$0")/.."
image=${1:?usage: scripts/image-ci.sh IMAGE_NAME}
export STORAGE_DRIVER=vfs BUILDAH_ISOLATION=chroot
goroot=$(go env GOROOT)
gomodcache=$(go env GOMODCACHE)
gocache=$(go env GOCACHE)
# What an earlier run left in the (vfs, so full-copy) storage goes first.
buildah rmi -f localhost/mcpgen-ci-go localhost/mcpgen-ci-static "$image" >/dev/null 2>&1 || true
buildah rmi --prune >/dev/null 2>&1 || true

# The build stage's stand-in.
c=$(buildah from scratch)
root=$(buildah mount "$c")
mkdir -p "$root/usr/local" "$root/bin" "$root/etc" "$root/tmp" "$root/go/pkg/mod" "$root/root/.cache/go-build"
chmod 1777 "$root/tmp"
cp -a "$goroot" "$root/usr/local/go"
cp -L /bin/sh "$root/bin/sh"
for lib in $(ldd /bin/sh | grep -o '/[^ ]*' || true); do
  mkdir -p "$root$(dirname "$lib")" && cp -L "$lib" "$root$lib"
done
echo 'root:x:0:0:root:/root:/bin/sh' > "$root/etc/passwd"
buildah unmount "$c" >/dev/null
buildah config --env PATH=/go/bin:/usr/local/go/bin:/usr/bin:/bin --env GOPATH=/go \
  --env GOTOOLCHAIN=local --env GOPROXY=off --env HOME=/root "$c"
buildah commit -q --rm "$c" localhost/mcpgen-ci-go >/dev/null

# The runtime stage's stand-in.
c=$(buildah from scratch)
root=$(buildah mount "$c")
mkdir -p "$root/etc/ssl/certs" "$root/usr/share" "$root/tmp" "$root/home/nonroot"
chmod 1777 "$root/tmp"
chown 65532:65532 "$root/home/nonroot"
printf 'root:x:0:0:root:/root:/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' > "$root/etc/passwd"
printf 'root:x:0:\nnobody:x:65534:\nnonroot:x:65532:\n' > "$root/etc/group"
cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/"
cp -a /usr/share/zoneinfo "$root/usr/share/zoneinfo"
buildah unmount "$c" >/dev/null
buildah commit -q --rm "$c" localhost/mcpgen-ci-static >/dev/null

# The Dockerfile, as written, on those bases.
buildah bud --layers=false --pull=never \
  --build-arg GO_IMAGE=localhost/mcpgen-ci-go --build-arg RUNTIME_IMAGE=localhost/mcpgen-ci-static \
  --build-arg VERSION=ci --build-arg COMMIT="$(git rev-parse HEAD 2>/dev/null || echo unknown)" \
  -v "$gomodcache:/go/pkg/mod" -v "$gocache:/root/.cache/go-build" \
  -t "$image" .
buildah rmi -f localhost/mcpgen-ci-go localhost/mcpgen-ci-static >/dev/null
buildah rmi --prune >/dev/null 2>&1 || true
