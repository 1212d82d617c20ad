#!/usr/bin/env bash
# tests/compat.sh [released VERSION… | scaled] — `make test-compat`: the compatibility harness
# (compatibility-tests/). Builds both service images (service-images.sh), the newer schema and
# every client, then runs the harness, which starts the topology in Testcontainers and prints the
# matrix. With `released VERSION…`, only clients built on those released SDK versions run (a row
# per client × version), each installed from the registries the environment names
# (compatibility-tests/released/build.sh): what `make release` checks before it publishes.
# With `scaled` (`make test-compat-scaled`), the same clients and cases run against `make up
# SCALE=3` (features.yaml topologies.scaled): a system of this run's own, started here and
# stopped at the end, which the harness reaches through its endpoints.env.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
# Testcontainers on this machine: no ryuk (its image cannot be pulled), the engine's ports on
# localhost (this host looks like a container, so it would otherwise look for a gateway), and
# no start-up checks (the disk-space check runs an alpine image: two minutes of failed pulls).
export TESTCONTAINERS_RYUK_DISABLED=true TESTCONTAINERS_HOST_OVERRIDE=localhost TESTCONTAINERS_CHECKS_DISABLE=true

"$ROOT/scripts/services/images.sh"
# The trace backend the topology runs beside them (features.yaml tracing), for the trace cases.
"$ROOT/scripts/system/zipkin/image.sh"

start=$SECONDS
"$ROOT/compatibility-tests/schema-next/build.sh" >/dev/null
# Today's clients run only in the full matrix; a released run builds its clients from the
# registries (released/build.sh, which builds today's pieces it borrows when they are missing).
if [[ "${1:-}" != released ]]; then
  shopt -s nullglob
  for build in compatibility-tests/clients/*/build.sh; do
    log "building the $(basename "$(dirname "$build")") client"
    "$build"
  done
fi
# The harness's own unit tests (its verdict rules) run here; the modules it depends on were
# tested by their own suites.
harness_tests=(-Dtest='com.acme.compat.harness.*Test' -Dsurefire.failIfNoSpecifiedTests=false)
if [[ "${1:-}" == released ]]; then
  # A release runs this on every release it makes: the SDK comes installed from sdk/java.sh (a
  # no-op when the service image's build just installed it from these inputs) instead of a
  # third build of it in this reactor, and the harness's unit tests, which test its own code
  # (the SDK is their sample schema), run once per version of that code: the stamp holds the
  # hash of the sources they passed on.
  "$ROOT/scripts/sdk/java.sh" build >/dev/null
  tested="$TOOLS/compat/harness-tests-passed" harness_inputs="$(inputs_hash compatibility-tests/harness compatibility-tests/executor pom.xml)"
  [[ "$(cat "$tested" 2>/dev/null)" == "$harness_inputs" ]] && harness_tests=(-DskipTests)
  rm -f "$tested"
  "${MVN[@]}" -q -pl compatibility-tests/executor,compatibility-tests/harness package "${harness_tests[@]}"
  mkdir -p "$(dirname "$tested")" && echo "$harness_inputs" >"$tested"
else
  "${MVN[@]}" -q -pl compatibility-tests/harness -am package "${harness_tests[@]}"
fi
if [[ "${1:-}" == released ]]; then
  shift
  (($#)) || die "usage: compat.sh released VERSION…"
  COMPAT_RELEASED="$("$ROOT/compatibility-tests/released/build.sh" "$@")"
  export COMPAT_RELEASED COMPAT_ONLY_RELEASED=1
fi
log "clients and harness built in $((SECONDS - start)) s"

if [[ "${1:-}" == scaled ]]; then
  # Its own name, data folder and free ports, beside a user's system; the browser client's
  # page on a port of its own, which the system then allows (lib-system.sh TEST_PAGE_PORT).
  export SCALE=3 SYSTEM_NAME="acme-compat-scaled-$$" SYSTEM_DIR="$TOOLS/system-compat-scaled"
  source "$ROOT/scripts/system/lib-system.sh"
  system_own_ports TEST_PAGE_PORT
  # Its own Zipkin, which the trace cases read; and the settings the cases were written for,
  # the harness topology's own (one definition each: auth-node.env, person-spring.env).
  unset TRACING_ZIPKIN_ENDPOINT
  env_settings() { grep -v -e '^#' -e '^$' "$1" | tr '\n' ' '; }
  SYSTEM_AUTH_ENV="$(env_settings compatibility-tests/auth-node.env)"
  SYSTEM_PERSON_ENV="$(env_settings compatibility-tests/person-spring.env)"
  export SYSTEM_AUTH_ENV SYSTEM_PERSON_ENV
  rm -rf "$SYSTEM_DIR"
  system_logs="$TOOLS/compat-scaled/system-logs"
  rm -rf "$system_logs" && mkdir -p "$system_logs"
  # The containers' logs are kept for a failure's post-mortem before the system goes.
  stop_system() {
    for c in $(docker ps -a --filter "name=^$SYSTEM_NAME-" --format '{{.Names}}'); do
      docker logs "$c" >"$system_logs/${c#"$SYSTEM_NAME-"}.log" 2>&1 || true
    done
    "$ROOT/scripts/system/down.sh" >/dev/null
    rm -rf "$SYSTEM_DIR"
  }
  trap stop_system EXIT
  up_start=$SECONDS
  "$ROOT/scripts/system/up.sh" >"$system_logs/up.log" 2>&1 || { tail -20 "$system_logs/up.log"; die "make up SCALE=3 failed (above)"; }
  log "make up SCALE=3 in $((SECONDS - up_start)) s; its containers' logs will be in ${system_logs#"$ROOT/"}/"
  export COMPAT_TOPOLOGY=scaled COMPAT_SYSTEM="$SYSTEM_DIR/endpoints.env"
fi

harness=compatibility-tests/harness/target
java "${SHORT_JVM[@]}" -cp "$harness/classes:$(cat "$harness/classpath.txt")" com.acme.compat.harness.Main "$ROOT"
