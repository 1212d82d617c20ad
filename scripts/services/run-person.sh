#!/usr/bin/env bash
# services/run-person.sh — builds person-spring and runs it in the foreground. Configuration comes from
# the environment (GRPC_PORT, REST_PORT, AUTH_ADDRESS, DB_URL, SPRING_PROFILES_ACTIVE, …; see
# services/person-spring/README.md).
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
"$ROOT/scripts/sdk/java.sh" build >/dev/null
"${MVN[@]}" -q -pl services/person-spring package -DskipTests
exec java -jar services/person-spring/target/person-spring-*-exec.jar
