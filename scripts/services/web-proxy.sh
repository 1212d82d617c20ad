#!/usr/bin/env bash
# services/web-proxy.sh [build|test|image] — services/web-proxy, the translating proxy that lets
# a browser call person-spring (Connect and gRPC-Web in, gRPC out). `build`: the static binary
# (Go, modules pinned by go.sum, into .tmp/web-proxy/) and the contracts' descriptors it loads
# (buf build of proto/acme with its imports); `test`: go vet, gofmt and go test;
# `image`: the image $WEB_PROXY_IMAGE from the two (FROM scratch: no base image to make).
source "$(dirname "$0")/../lib.sh"
mode="${1:-build}"
module="$ROOT/services/web-proxy"
out="$TOOLS/web-proxy"

build() {
  mkdir -p "$out/image"
  (cd "$module" && CGO_ENABLED=0 go build -trimpath -ldflags=-s -o "$out/image/web-proxy" ./cmd/web-proxy)
  (cd "$ROOT" && buf build --path proto/acme -o "$out/image/contracts.binpb")
}

case "$mode" in
  build) build ;;
  test)
    cd "$module"
    go vet ./...
    unformatted="$(gofmt -l .)"
    [[ -z "$unformatted" ]] || die "gofmt would change: $unformatted"
    go test -count=1 ./...
    ;;
  image)
    "$ROOT/scripts/setup/docker.sh"
    # What the image is made of: the proxy's module, the contracts and buf's settings (the
    # descriptors; the imports' versions are pinned in versions.env) and this script. An image
    # labelled with the same hash is current, and the Go build, buf build and docker build are
    # skipped (a dozen suites ask for the images; each rebuild took 3 to 16 s of a loaded machine).
    inputs="$(inputs_hash services/web-proxy proto buf.yaml versions.env scripts/services/web-proxy.sh)"
    if up_to_date "$WEB_PROXY_IMAGE" "$inputs"; then
      log "$WEB_PROXY_IMAGE is up to date"
      exit 0
    fi
    build
    cp "$module/Dockerfile" "$out/image/Dockerfile"
    log "building $WEB_PROXY_IMAGE"
    build_log="$(mktemp)"
    docker build -q -t "$WEB_PROXY_IMAGE" --label "acme.inputs=$inputs" "$out/image" >"$build_log" 2>&1 \
      || { cat "$build_log" >&2; die "docker build failed"; }
    rm -f "$build_log"
    echo "image $WEB_PROXY_IMAGE ($(docker image inspect -f '{{.Size}}' "$WEB_PROXY_IMAGE" | awk '{printf "%.0f MB", $1/1e6}'))"
    ;;
  *) die "usage: web-proxy.sh build|test|image" ;;
esac
