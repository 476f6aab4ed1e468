# mcpgen as a container: a static binary on a distroless base.
#   docker build -t mcpgen .
#   docker run -p 8080:8080 -v $PWD/examples/team:/config mcpgen serve --http 0.0.0.0:8080 /config/mcpgen.yaml
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o /mcpgen ./cmd/mcpgen

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /mcpgen /usr/local/bin/mcpgen
USER nonroot
ENTRYPOINT ["/usr/local/bin/mcpgen"]
