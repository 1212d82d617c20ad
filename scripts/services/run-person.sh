#!/usr/bin/env bash
# services/run-person.sh — builds person-spring and runs it in the foreground. Configuration comes
# from the environment (GRPC_PORT, REST_PORT, AUTH_ADDRESS, DB_URL, SPRING_PROFILES_ACTIVE, …;
# see services/person-spring/README.md). Its embedded database lives in .tmp/person-data
# unless PERSON_DATA_DIR says otherwise (a relative one: from where the command was given).
source "$(dirname "$0")/../lib.sh"
data_dir="${PERSON_DATA_DIR:-$ROOT/.tmp/person-data}"
[[ "$data_dir" == /* ]] || data_dir="$PWD/$data_dir"
export PERSON_DATA_DIR="$data_dir"
cd "$ROOT"
"$ROOT/scripts/sdk/java.sh" build >/dev/null
"${MVN[@]}" -q -pl services/person-spring package -DskipTests
exec java -jar services/person-spring/target/person-spring-*-exec.jar
