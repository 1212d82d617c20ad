#!/usr/bin/env bash
# services/test-person.sh — person-spring's own tests (mvn verify on the embedded H2): the real
# server on port 0, the generated clients, a stand-in auth service; and its benchmarks'
# module's tests (the mappers they compare agree). The PostgreSQL profile has its own suite,
# scripts/services/test-person-postgres.sh.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
"$ROOT/scripts/sdk/java.sh" build >/dev/null
# The tracing tests export to a Zipkin of the suite's own (PERSON_TEST_ZIPKIN_URL), stopped at the end.
source "$ROOT/scripts/tests/zipkin.sh"
ZIPKIN_DIR="$(mktemp -d "$TOOLS/person-zipkin.XXXXXX")"
trap 'zipkin_stop "$ZIPKIN_DIR"; rm -rf "$ZIPKIN_DIR"' EXIT
PERSON_TEST_ZIPKIN_URL="$(zipkin_start "$ZIPKIN_DIR")"
export PERSON_TEST_ZIPKIN_URL
# Two test JVMs, one per core, each taking the next test class: a class's server waits on its
# clients and its store much of the time, so one JVM kept 45 % of the CPUs busy (120 s; 92 s
# with two). Each application context has its own in-memory database and port 0, and only
# TracingTest exports to the Zipkin, so no class sees another's.
"${MVN[@]}" -Pbench -pl services/person-spring,services/person-spring/benchmarks verify -DforkCount=2
