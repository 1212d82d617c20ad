#!/usr/bin/env bash
# services/test-person.sh — person-spring's own tests (mvn verify on the embedded H2): the real
# server on port 0, the generated clients, a stand-in auth service; and its benchmarks'
# module's tests (the mappers they compare agree). The PostgreSQL profile has its own suite,
# scripts/services/test-person-postgres.sh.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
"$ROOT/scripts/sdk/java.sh" build >/dev/null
"${MVN[@]}" -Pbench -pl services/person-spring,services/person-spring/benchmarks verify
