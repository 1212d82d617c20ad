#!/usr/bin/env bash
# all.sh — `make` / `make all`, the main job: install the pinned tools, run the
# governance gate, build the three SDK packages and the two services on them, and print a
# short summary.
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
started=$SECONDS

"$ROOT/scripts/setup/tools.sh"
gate_started=$SECONDS
"$ROOT/scripts/gate/gate" check
gate_seconds=$((SECONDS - gate_started))
log "building the SDK packages"
"$ROOT/scripts/sdk/all.sh" build
log "building the services on the SDKs"
"$ROOT/scripts/services/auth-node.sh" build
"${MVN[@]}" -q -pl services/person-spring package -DskipTests

count() { cat proto/acme/*/v*/*.proto | grep -cE "$1" || true; }
size() { du -h "$1" | cut -f1; }
cat <<SUMMARY

Summary
  contracts   $(find proto -name '*.proto' | wc -l) files, packages $(grep -h '^package ' -r proto | sed 's/package \(.*\);/\1/' | sort -u | paste -sd' ')
              $(count '^message ') messages, $(count '^enum ') enums, $(count '^service ') services, $(count '^  rpc ') RPCs
  gate        lint, format, breaking, drift: passed in ${gate_seconds}s
  SDK $SDK_VERSION
    java      dist/java/acme-contracts-$SDK_VERSION.jar ($(size "dist/java/acme-contracts-$SDK_VERSION.jar")), installed in .tmp/m2
    ts        dist/ts/acme-contracts-$SDK_VERSION.tgz ($(size "dist/ts/acme-contracts-$SDK_VERSION.tgz"))
    python    dist/python/acme_contracts-$SDK_VERSION-py3-none-any.whl ($(size "dist/python/acme_contracts-$SDK_VERSION-py3-none-any.whl"))
  services
    auth-node      services/auth-node/dist (make run-auth; make image-auth)
    person-spring  $(ls services/person-spring/target/person-spring-*-exec.jar) ($(size services/person-spring/target/person-spring-*-exec.jar); make run-person; make image-person)
  took        $((SECONDS - started))s
SUMMARY
