#!/usr/bin/env bash
# build.sh — builds the Java SDK and the client in the root Maven reactor (-am: the client
# takes com.acme.contracts:acme-contracts by coordinates, from gen/java), with the pinned
# Maven. Output: target/compat-client-java.jar and its class path in target/lib/ (git-ignored).
source "$(dirname "$0")/../../../scripts/lib.sh"
cd "$ROOT"
"${MVN[@]}" -q -pl compatibility-tests/clients/java -am package -DskipTests
