#!/usr/bin/env bash
# bench/store.sh full|smoke OUT [--build] [writers|million] — the store's benchmarks (benchmarks/src/.../StoreBench.java),
# each against a topology of its own (compatibility-tests/topology.sh), writing store-*.json
# into OUT for benchmarks/report/report.py:
#   writers: people stored per second by 8 and 100 concurrent RegisterPerson writers, on the
#            embedded H2 as it was before the store's rework (the image built from
#            STORE_BASELINE_REF), on the embedded H2 now, and on PostgreSQL now;
#   million: a directory of 1,000,000 people on the embedded H2 and on PostgreSQL: bytes on
#            disk, searches, deep pages, the unfiltered listing and memory.
# smoke (make test's bench-smoke) proves the machinery, not the numbers, and keeps make test
# short: 20,000 people, then the writers for 2 s, on one topology on the embedded H2 only (each
# topology costs two service starts); no PostgreSQL and no "before" (building person-spring from
# the old commit alone takes minutes): make bench and make bench-store run those. bench/run.sh
# runs the smoke beside the scenarios. Each topology is the two services alone (no web proxy, no
# newer schema): the store's benchmarks speak to nothing else.
# A last argument runs one of the two parts of the full plan again alone, keeping the other's files.
# PostgreSQL is a throwaway cluster on this machine with fsync on. bench/run.sh calls this after
# the field reports' scenarios (it has built the images and the program); on its own (make
# bench-store) --build builds them first.
source "$(dirname "$0")/../lib.sh"
source "$ROOT/scripts/services/lib-postgres.sh"
cd "$ROOT"
plan="${1:-full}"
out="${2:-$ROOT/benchmarks/results}"
build="" part=""
for arg in "${@:3}"; do
  case "$arg" in
    --build) build=1 ;;
    writers | million) part="$arg" ;;
    *) die "usage: bench/store.sh full|smoke OUT [--build] [writers|million]" ;;
  esac
done
[[ "$plan" == full || "$plan" == smoke ]] || die "usage: bench/store.sh full|smoke OUT [--build] [writers|million]"
# The last commit before the store's rework: "before" in the report is this code, built here.
STORE_BASELINE_REF="${STORE_BASELINE_REF:-66d5dad0c9a64a9fd1906a066dc922da3f700a29}"
work="$TOOLS/bench/store"
mkdir -p "$work" "$out"
rm -f "$out"/store-${part:-*}-*.json

if [[ -n "$build" ]]; then
  "$ROOT/scripts/services/images.sh"
  "$ROOT/scripts/sdk/java.sh" build >/dev/null
  "${MVN[@]}" -q -pl benchmarks -am package -DskipTests
fi
[[ -f benchmarks/target/classpath.txt ]] || die "the benchmark program is not built: run make bench-store"
classpath="benchmarks/target/classes:$(cat benchmarks/target/classpath.txt)"

# The baseline image: person-spring built from STORE_BASELINE_REF's own sources (git archive;
# Maven packages without installing, so nothing of it reaches the shared local repository).
baseline_tag="$ACME_IMAGE_TAG-store-baseline"
if [[ "$plan" == full ]] && ! docker image inspect "acme/person-spring:$baseline_tag" >/dev/null 2>&1; then
  log "building person-spring as of $STORE_BASELINE_REF (the store before its rework)"
  src="$work/baseline-src"
  rm -rf "$src" && mkdir -p "$src"
  git archive "$STORE_BASELINE_REF" | tar -x -C "$src"
  "${MVN[@]}" -q -f "$src/pom.xml" -pl services/person-spring -am package -DskipTests
  mkdir -p "$src/services/person-spring/target/image-data"
  docker build -q --build-arg BASE_IMAGE=acme/jre-base:17 -t "acme/person-spring:$baseline_tag" \
    "$src/services/person-spring" >/dev/null
  rm -rf "$src"
fi
[[ "$plan" != full ]] || docker tag "$AUTH_NODE_IMAGE" "acme/auth-node:$baseline_tag"

# measure WHAT LABEL STORE [IMAGE_TAG] — one StoreBench run on a topology of its own.
measure() {
  local what="$1" label="$2" store="$3" tag="${4:-$ACME_IMAGE_TAG}"
  (
    export ACME_IMAGE_TAG="$tag" STORE_KIND="$store" COMPAT_TOPOLOGY="store-bench-$$"
    export TOPOLOGY_DATA="" TOPOLOGY_PERSON_ENV="AUTH_CACHE_TTL=5s" TOPOLOGY_SERVICES_ONLY=1
    if [[ "$store" == h2 ]]; then
      TOPOLOGY_DATA="$work/h2-$$"
      rm -rf "$TOPOLOGY_DATA"
    else
      PG_FSYNC=on start_throwaway_postgres containers
      TOPOLOGY_PERSON_ENV+=" SPRING_PROFILES_ACTIVE=postgres DB_URL=$PG_CONTAINER_JDBC_URL DB_USER=$PG_USER DB_PASSWORD=$PG_PASSWORD"
    fi
    trap '"$ROOT/compatibility-tests/topology.sh" down; [[ -z "$TOPOLOGY_DATA" ]] || rm -rf "$TOPOLOGY_DATA"; stop_throwaway_postgres' EXIT
    log "store bench: $what on $label"
    topology="$("$ROOT/compatibility-tests/topology.sh" up)" || die "the topology did not start"
    eval "$topology"
    java -cp "$classpath" com.acme.bench.StoreBench "$what" "$label" "$out/store-${what//,/-}-$label.json" "$plan"
  )
}

if [[ "$plan" == full ]]; then
  if [[ "$part" != million ]]; then
    measure writers h2-before h2 "$baseline_tag"
    measure writers h2 h2
    measure writers postgres postgres
  fi
  if [[ "$part" != writers ]]; then
    measure million h2 h2
    measure million postgres postgres
  fi
else
  measure million,writers h2 h2
fi
