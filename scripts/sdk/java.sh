#!/usr/bin/env bash
# sdk/java.sh [build|test] — the Java SDK as a Maven artifact: `mvn install` of gen/java
# into the project-local repository (.tmp/m2), where the reactor's services resolve it.
# `test` also runs its smoke tests (binary/JSON round trip, stubs over an in-process channel).
source "$(dirname "$0")/../lib.sh"
mode="${1:-build}"
cd "$ROOT"
jar="gen/java/target/acme-contracts-$SDK_VERSION.jar" sources="gen/java/target/acme-contracts-$SDK_VERSION-sources.jar"
# A build asked for again with the same inputs, whose jars are still the ones it installed, is
# skipped: a release builds the SDK for its service image, the compatibility harness and its
# packages, from one tree. `test` always runs.
inputs="$(inputs_hash gen/java gen/service-config.json pom.xml versions.env scripts/sdk/java.sh)"
made=("$jar" "$sources" "$M2/com/acme/contracts/acme-contracts/$SDK_VERSION/acme-contracts-$SDK_VERSION.jar")
stamp="$TOOLS/sdk-built/java"
if [[ "$mode" != test && "$(cat "$stamp" 2>/dev/null)" == "$(built_stamp "$inputs" "${made[@]}")" ]]; then
  echo "java sdk: built from these inputs already (installed, unchanged)"
else
  rm -f "$stamp"
  args=(install -pl gen/java)
  [[ "$mode" == "test" ]] || args+=(-DskipTests -q)
  "${MVN[@]}" "${args[@]}"
  mkdir -p "$(dirname "$stamp")" && built_stamp "$inputs" "${made[@]}" >"$stamp"
fi
mkdir -p dist/java
cp "$jar" "$sources" dist/java/
echo "java sdk: dist/java/acme-contracts-$SDK_VERSION.jar (installed as com.acme.contracts:acme-contracts:$SDK_VERSION)"
