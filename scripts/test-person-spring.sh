#!/usr/bin/env bash
# test-person-spring.sh — person-spring's own tests (mvn verify on the embedded H2): the real
# server on port 0, the generated clients, a stand-in auth service. The PostgreSQL profile
# has its own suite, scripts/test-person-postgres.sh.
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
"$ROOT/scripts/sdk-java.sh" build >/dev/null
"${MVN[@]}" -pl services/person-spring verify
