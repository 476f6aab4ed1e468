# mcpgen as a container: a static binary on a distroless base, run as a
# numeric non-root user (65532, distroless's "nonroot") so that Kubernetes can
# check runAsNonRoot without looking the name up.
#   docker build -t mcpgen --build-arg VERSION=v0.1.0 --build-arg COMMIT=$(git rev-parse HEAD) .
#   docker run -p 8080:8080 --read-only -v $PWD/examples/team:/config:ro mcpgen serve --http 0.0.0.0:8080 /config/mcpgen.yaml
FROM golang:1.26 AS build
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

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /mcpgen /usr/local/bin/mcpgen
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/mcpgen"]
