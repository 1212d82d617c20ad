#!/usr/bin/env bash
# tests/compat.sh [released VERSION…] — `make test-compat`: the compatibility harness
# (compatibility-tests/). Builds both service images (service-images.sh), the newer schema and
# every client, then runs the harness, which starts the topology in Testcontainers and prints the
# matrix. With `released VERSION…`, only clients built on those released SDK versions run (a row
# per client × version), each installed from the registries the environment names
# (compatibility-tests/released/build.sh): what `make release` checks before it publishes.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
# Testcontainers on this machine: no ryuk (its image cannot be pulled), the engine's ports on
# localhost (this host looks like a container, so it would otherwise look for a gateway), and
# no start-up checks (the disk-space check runs an alpine image: two minutes of failed pulls).
export TESTCONTAINERS_RYUK_DISABLED=true TESTCONTAINERS_HOST_OVERRIDE=localhost TESTCONTAINERS_CHECKS_DISABLE=true

"$ROOT/scripts/services/images.sh"

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
"${MVN[@]}" -q -pl compatibility-tests/harness -am package \
  -Dtest='com.acme.compat.harness.*Test' -Dsurefire.failIfNoSpecifiedTests=false
if [[ "${1:-}" == released ]]; then
  shift
  (($#)) || die "usage: compat.sh released VERSION…"
  COMPAT_RELEASED="$("$ROOT/compatibility-tests/released/build.sh" "$@")"
  export COMPAT_RELEASED COMPAT_ONLY_RELEASED=1
fi
log "clients and harness built in $((SECONDS - start)) s"

harness=compatibility-tests/harness/target
java -cp "$harness/classes:$(cat "$harness/classpath.txt")" com.acme.compat.harness.Main "$ROOT"
