#!/usr/bin/env bash
# services/image-person.sh [build] — builds person-spring's image from the Maven-built jar and proves it
# starts: runs it (H2, no auth service reachable), waits for the REST twin to answer an
# unauthenticated request with 401, stops it with SIGTERM and checks it shut down cleanly.
# BASE_IMAGE defaults to acme/jre-base:17 (build-base-images.sh: the official JRE when a
# registry answers, else one built here); any other image with a Java 17 runtime that has the
# JDK's class-data archive works too (the official ones have it).
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
base="${BASE_IMAGE:-acme/jre-base:17}"
image="$PERSON_SPRING_IMAGE"

"$ROOT/scripts/setup/docker.sh"
# The local base images rebuild themselves only when their inputs changed.
[[ "$base" == acme/* ]] && "$ROOT/scripts/setup/base-images.sh"
# What the image is made of: the service, the SDK it compiles against, the build's own POM,
# pins and scripts, and the base image. An image labelled with the same hash is current, and
# the Maven build and docker build are skipped (each suite asks for the images once).
inputs="$(inputs_hash services/person-spring gen/java pom.xml versions.env scripts/services/image-person.sh scripts/sdk/java.sh)-$(docker image inspect -f '{{.Id}}' "$base" 2>/dev/null | cut -c8-19)"
if up_to_date "$image" "$inputs" && compgen -G "services/person-spring/target/person-spring-*-exec.jar" >/dev/null; then
  log "$image is up to date"
else
  "$ROOT/scripts/sdk/java.sh" build >/dev/null
  "${MVN[@]}" -q -pl services/person-spring package -DskipTests
  # The image's /data folder, staged empty (the Dockerfile gives it to the service's user).
  mkdir -p services/person-spring/target/image-data
  log "building $image on $base"
  build_log="$(mktemp)"
  docker build -q --build-arg BASE_IMAGE="$base" --label "acme.inputs=$inputs" -t "$image" services/person-spring >"$build_log" 2>&1 \
    || { cat "$build_log" >&2; die "docker build failed"; }
  # The image's JVM can use the application's class-data archive (the Dockerfile): its own
  # command line, asked to check the archive and exit. A JVM that cannot map it (a jar not the
  # one archived, a runtime without the JDK's archive) fails this, and the image, labelled
  # current already, is removed so the next run builds it again.
  timeout 120 docker run --rm -e JAVA_TOOL_OPTIONS=-XX:+PrintSharedArchiveAndExit "$image" >"$build_log" 2>&1 \
    && grep -q '^archive is valid' "$build_log" \
    || { grep -v '^ *[0-9]*: ' "$build_log" | tail -20 >&2; docker rmi -f "$image" >/dev/null || true; die "$image's JVM cannot use its class-data archive (above)"; }
  rm -f "$build_log"
fi
# `build` stops here: the compatibility harness runs the image and proves far more.
[[ "${1:-}" == build ]] && { echo "image $image built on $base"; exit 0; }

name="person-spring-smoke-$$"
docker run -d --name "$name" -p 127.0.0.1::8080 -p 127.0.0.1::9090 -e AUTH_ADDRESS=127.0.0.1:1 "$image" >/dev/null
trap 'docker rm -f "$name" >/dev/null 2>&1 || true' EXIT
rest="$(docker port "$name" 8080/tcp | head -1)"
for _ in $(seq 120); do
  code="$(curl -s -o /dev/null -w '%{http_code}' "http://$rest/api/people/00000000-0000-0000-0000-000000000000" || true)"
  [[ "$code" == 401 ]] && break
  sleep 0.5
done
[[ "$code" == 401 ]] || { docker logs "$name" | tail -30 >&2; die "the container did not answer 401 (got $code)"; }
log "container answers on REST ($rest) and gRPC ($(docker port "$name" 9090/tcp | head -1))"
docker stop -t 30 "$name" >/dev/null
docker logs "$name" 2>&1 | grep -q "Completed gRPC server shutdown" \
  || { docker logs "$name" | tail -30 >&2; die "no graceful gRPC shutdown in the container's log"; }
echo "image $image ($(docker image inspect -f '{{.Size}}' "$image" | awk '{printf "%.0f MB", $1/1e6}')) builds, starts, answers and stops gracefully"
