#!/usr/bin/env bash
# tests/crash.sh [STORE…] — the crash suite (crash-tests/README.md): what a service acknowledged
# survives its process dying. For each store (h2: the embedded default, its file in a host
# folder on a small file system of its own; postgres: a throwaway PostgreSQL cluster on this
# machine) it starts the topology (compatibility-tests/topology.sh), then runs person-spring's
# crash test on it: SIGKILL under load, SIGTERM under load, and on h2 a disk that fills up and
# turns read-only. Each run restarts the service and reads everything back. CRASH_SEED chooses
# the moment of the crash (printed by every run).
source "$(dirname "$0")/../lib.sh"
source "$ROOT/scripts/services/lib-postgres.sh"
cd "$ROOT"
stores=("$@")
((${#stores[@]})) || stores=(h2 postgres)
out="$TOOLS/crash"
mkdir -p "$out"

"$ROOT/scripts/services/images.sh"
"$ROOT/scripts/sdk/java.sh" build >/dev/null
"${MVN[@]}" -q -pl crash-tests/person-spring -am package -DskipTests
person_classpath="crash-tests/person-spring/target/classes:$(cat crash-tests/person-spring/target/classpath.txt)"

# topology_up STORE — the topology on STORE, its environment exported; down on exit. The token
# cache is the service's default (5 s), and the auth deadline long: on a machine busy with other
# work a ValidateToken call can take seconds, and the crash test is about the store.
topology_up() {
  export COMPAT_TOPOLOGY="crash-$1-$$" TOPOLOGY_DATA="" TOPOLOGY_PERSON_ENV="AUTH_CACHE_TTL=5s AUTH_DEADLINE_MS=10000"
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
  local topology
  topology="$("$ROOT/compatibility-tests/topology.sh" up)" || die "the topology did not start"
  eval "$topology"
}

failed=0
for store in "${stores[@]}"; do
  (
    topology_up "$store"
    status=0
    scenarios=(kill term)
    [[ "$store" != h2 ]] || scenarios+=(disk)
    for scenario in "${scenarios[@]}"; do
      java -cp "$person_classpath" com.acme.crash.person.CrashTest "$scenario" "$store" || status=1
    done
    exit "$status"
  ) || failed=1
done
((failed == 0)) || die "the crash suite failed (the services' logs are in ${out#"$ROOT/"}/)"
echo "crash suite: every acknowledged write survived SIGKILL, SIGTERM (and a failing disk) on ${stores[*]}"
