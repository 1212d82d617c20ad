#!/usr/bin/env bash
# tests/crash.sh [STORE…] — the crash suite (crash-tests/README.md): what a service acknowledged
# survives its process dying. For each store (h2: the embedded default, its file in a host
# folder on a small file system of its own; postgres: a throwaway PostgreSQL cluster on this
# machine) it starts the topology (compatibility-tests/topology.sh), then runs person-spring's
# crash test on it: SIGKILL under load, SIGTERM under load, and on h2 a disk that fills up and
# turns read-only. Each run restarts the service and reads everything back. CRASH_SEED chooses
# the moment of the crash (printed by every run). The stores are tested side by side: each has
# its own topology and database, and much of a run is waiting for a service to start or stop.
source "$(dirname "$0")/../lib.sh"
source "$ROOT/scripts/services/lib-postgres.sh"
cd "$ROOT"
stores=("$@")
((${#stores[@]})) || stores=(h2 postgres)
out="$TOOLS/crash"
mkdir -p "$out"
suite_start=$SECONDS

"$ROOT/scripts/services/images.sh"
# The crash test program, compiled again only when its sources, the SDK it speaks or the build
# changed: the SDK is installed first, then the module alone is built against it.
program="crash-tests/person-spring/target"
program_inputs="$(inputs_hash crash-tests/person-spring gen/java pom.xml versions.env scripts/sdk/java.sh scripts/tests/crash.sh)"
if [[ -f "$program/inputs.hash" && "$(cat "$program/inputs.hash")" == "$program_inputs" && -f "$program/classpath.txt" ]] \
  && tr ':' '\n' <"$program/classpath.txt" | xargs ls >/dev/null 2>&1; then
  log "the crash test program is up to date"
else
  build_start=$SECONDS
  rm -f "$program/inputs.hash"
  "$ROOT/scripts/sdk/java.sh" build >/dev/null
  "${MVN[@]}" -q -pl crash-tests/person-spring package -DskipTests
  echo "$program_inputs" >"$program/inputs.hash"
  log "the crash test program built in $((SECONDS - build_start)) s"
fi
person_classpath="$program/classes:$(cat "$program/classpath.txt")"

# topology_up STORE — the topology on STORE (its two services: the crash test speaks to nothing
# else), its environment exported; down on exit. The token cache is the service's default
# (5 s), and the auth deadline long: on a machine busy with other work a ValidateToken call can
# take seconds, and the crash test is about the store.
topology_up() {
  export COMPAT_TOPOLOGY="crash-$1-$$" TOPOLOGY_SERVICES_ONLY=1 TOPOLOGY_DATA="" TOPOLOGY_PERSON_ENV="AUTH_CACHE_TTL=5s AUTH_DEADLINE_MS=10000"
  export CRASH_DATA_MOUNT="" CRASH_AS_ROOT=""
  ((EUID == 0)) || CRASH_AS_ROOT=sudo
  case "$1" in
    h2)
      # A file system of its own, small enough to fill and able to turn read-only (tmpfs).
      TOPOLOGY_DATA="$out/$1-$$" CRASH_DATA_MOUNT="$out/$1-$$"
      mkdir -p "$TOPOLOGY_DATA"
      as_root mount -t tmpfs -o size=256m,mode=0777 tmpfs "$TOPOLOGY_DATA"
      ;;
    postgres)
      start_throwaway_postgres containers
      TOPOLOGY_PERSON_ENV+=" SPRING_PROFILES_ACTIVE=postgres DB_URL=$PG_CONTAINER_JDBC_URL DB_USER=$PG_USER DB_PASSWORD=$PG_PASSWORD"
      ;;
    *) die "unknown store $1 (h2 or postgres)" ;;
  esac
  trap 'docker logs "$COMPAT_TOPOLOGY-person" >"$out/$COMPAT_TOPOLOGY.person.log" 2>&1 || true;
        "$ROOT/compatibility-tests/topology.sh" down;
        [[ -z "$CRASH_DATA_MOUNT" ]] || as_root umount "$CRASH_DATA_MOUNT" || true;
        [[ -z "$TOPOLOGY_DATA" ]] || rm -rf "$TOPOLOGY_DATA";
        stop_throwaway_postgres' EXIT
  log "crash suite on $1: starting the topology"
  local topology start=$SECONDS
  # One topology starts at a time: two Spring services starting at once on two busy cores
  # outlast topology.sh's wait; the scenarios, mostly waiting on the services, run side by side.
  topology="$(flock "$out/topology.lock" "$ROOT/compatibility-tests/topology.sh" up)" || die "the topology did not start"
  eval "$topology"
  log "crash suite on $1: the topology started in $((SECONDS - start)) s"
}

# crash_store STORE — every scenario of STORE on one topology, one after the other (they share
# the service and its database; each names its people apart), in one run of the program (each
# prints how long its phases took).
crash_store() {
  topology_up "$1"
  local scenarios=(kill term) start=$SECONDS status=0
  [[ "$1" != h2 ]] || scenarios+=(disk)
  java "${SHORT_JVM[@]}" -cp "$person_classpath" com.acme.crash.person.CrashTest "$1" "${scenarios[@]}" || status=1
  log "crash suite on $1: ${scenarios[*]} took $((SECONDS - start)) s"
  return "$status"
}

pids=()
for store in "${stores[@]}"; do
  # Every line says which store it is about, since both run at once.
  (crash_store "$store") 2>&1 | sed -u "s/^/[$store] /" &
  pids+=($!)
done
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
log "crash suite: $((SECONDS - suite_start)) s in all (load average $(cut -d' ' -f1-3 /proc/loadavg))"
((failed == 0)) || die "the crash suite failed (the services' logs are in ${out#"$ROOT/"}/)"
echo "crash suite: every acknowledged write survived SIGKILL, SIGTERM (and a failing disk) on ${stores[*]}"
