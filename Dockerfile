# mcpgen as a container: a static binary on a distroless base, run as a
# numeric non-root user (65532, distroless's "nonroot") so that Kubernetes can
# check runAsNonRoot without looking the name up.
#   docker build -t mcpgen --build-arg VERSION=v0.1.0 --build-arg COMMIT=$(git rev-parse HEAD) .
#   docker run -p 8080:8080 --read-only -v $PWD/examples/team:/config:ro mcpgen serve --http 0.0.0.0:8080 /config/mcpgen.yaml
#
# Both base images are pinned by digest: a tag that moves cannot change what
# a given commit builds. The digests are those published for the tags named
# (golang:1.26.8-bookworm, gcr.io/distroless/static-debian12:nonroot, as
# pinned in public Dockerfiles in late 2026); refresh them with
#   docker buildx imagetools inspect golang:1.26.8-bookworm
#   crane digest gcr.io/distroless/static-debian12:nonroot
# The build arguments GO_IMAGE and RUNTIME_IMAGE replace them with images of
# the same shape (a Go toolchain on PATH; a root filesystem with /etc/passwd,
# CA certificates and time zones), as .ci/run does where no registry is
# reachable (scripts/image-ci.sh).
ARG GO_IMAGE=golang:1.26.8-bookworm@sha256:a688600ca24f8a4d3ca77f95b0dd40704a9fc787c826660eb7ba0b641b8b175d
ARG RUNTIME_IMAGE=gcr.io/distroless/static-debian12:nonroot@sha256:afa5c872c891853ca7fcf1f12c3edb23f7eeef36189728842dd51042ff57f7ab

FROM ${GO_IMAGE} AS build
ARG VERSION=""
ARG COMMIT=""
ARG DATE=""
WORKDIR /src
# The dependencies first, in a layer of their own that a change of source
# keeps: go.mod and go.sum name them all (the go-sdk copy in
# runtime/internal/gosdk is part of this module, not a module of its own).
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# The release flags of scripts/release.sh; .git is not copied in, so the
# version, commit and date come from the build arguments.
RUN CGO_ENABLED=0 go build -trimpath -buildvcs=false \
      -ldflags "-s -w -buildid= -X main.version=${VERSION} -X main.commit=${COMMIT} -X main.date=${DATE}" \
      -o /mcpgen ./cmd/mcpgen

FROM ${RUNTIME_IMAGE}
COPY --from=build /mcpgen /usr/local/bin/mcpgen
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/mcpgen"]
