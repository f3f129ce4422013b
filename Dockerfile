# resumelint as a static binary on a minimal base image.
#
#   docker build -t resumelint --build-arg VERSION=v1.2.0 .
#   docker run --rm -v "$PWD:/work" resumelint lint
#
# The image has no git: discovery walks the folder (git-ignored files are
# linted too; exclude them in .resumelint.yaml) and --base is not available.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath \
      -ldflags "-s -w -X github.com/resumelint/resumelint/internal/version.Version=${VERSION}" \
      -o /out/resumelint ./cmd/resumelint

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/resumelint /usr/local/bin/resumelint
WORKDIR /work
ENTRYPOINT ["/usr/local/bin/resumelint"]
CMD ["lint"]
