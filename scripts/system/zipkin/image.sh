#!/usr/bin/env bash
# system/zipkin/image.sh — the trace backend's image, acme/zipkin:$ACME_IMAGE_TAG: the pinned
# Zipkin jar ($ZIPKIN_JAR, make setup) on the project's base image (make base-images). Built
# again only when the jar, the base image or this folder change (the image's acme.inputs label).
source "$(dirname "$0")/../../lib.sh"
here="$ROOT/scripts/system/zipkin"
image="$ZIPKIN_IMAGE"
base="${BASE_IMAGE:-acme/jre-base:$JAVA_VERSION}"
[[ -f "$ZIPKIN_JAR" ]] || die "no Zipkin server at $ZIPKIN_JAR: run make setup"

[[ "$base" != acme/* ]] || "$ROOT/scripts/setup/base-images.sh" >/dev/null
hash="$(printf '%s\n' "$base" "$(docker image inspect -f '{{.Id}}' "$base")" \
  $(sha256sum "$ZIPKIN_JAR" "$here"/Dockerfile "$0" | awk '{print $1}') | sha256sum | cut -c1-16)"
up_to_date "$image" "$hash" && exit 0

log "building $image (Zipkin $ZIPKIN_SERVER_VERSION on $base)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$ZIPKIN_JAR" "$work/zipkin-server-exec.jar"
cp "$here/Dockerfile" "$work/"
docker build -q --build-arg BASE_IMAGE="$base" --label "acme.inputs=$hash" \
  --label "acme.zipkin=$ZIPKIN_SERVER_VERSION" -t "$image" "$work" >/dev/null
