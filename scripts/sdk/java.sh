#!/usr/bin/env bash
# sdk/java.sh [build|test] — the Java SDK as a Maven artifact: `mvn install` of gen/java
# into the project-local repository (.tmp/m2), where the reactor's services resolve it.
# `test` also runs its smoke tests (binary/JSON round trip, stubs over an in-process channel).
source "$(dirname "$0")/../lib.sh"
mode="${1:-build}"
cd "$ROOT"
args=(install -pl gen/java)
[[ "$mode" == "test" ]] || args+=(-DskipTests -q)
"${MVN[@]}" "${args[@]}"
mkdir -p dist/java
cp gen/java/target/acme-contracts-"$SDK_VERSION".jar gen/java/target/acme-contracts-"$SDK_VERSION"-sources.jar dist/java/
echo "java sdk: dist/java/acme-contracts-$SDK_VERSION.jar (installed as com.acme.contracts:acme-contracts:$SDK_VERSION)"
