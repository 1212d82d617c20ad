#!/usr/bin/env bash
# tests/schema-registry.sh — `make test-schema-registry` (part of make test): the schema
# registry (registry/, Go). Its own Go tests (vet and format first), then Confluent's Python
# client (confluent-kafka's SchemaRegistryClient and protobuf serde, pinned in
# registry/tests/requirements.txt) against the real registry process, which each test starts
# on a free port with its own database, judging with the contracts' buf.yaml and the gate's
# check plugin; writes checked with tokens of the real auth service (services/auth-node, built
# here, started by the test on ports of its choosing).
source "$(dirname "$0")/../lib.sh"
cd "$ROOT/registry"
unformatted="$(gofmt -l .)"
[[ -z "$unformatted" ]] || die "gofmt would change: $unformatted"
go vet ./...
go test -count=1 ./...
go build -trimpath -o "$BIN/acme-registry" ./cmd/registry

requirements="$ROOT/registry/tests/requirements.txt"
grep -qx "confluent-kafka==$CONFLUENT_KAFKA_VERSION" "$requirements" \
  || die "$requirements must pin confluent-kafka==$CONFLUENT_KAFKA_VERSION (versions.env)"
venv="$TOOLS/schema-registry/venv"
sdk_venv "$venv" "$requirements"

"$ROOT/scripts/services/auth-node.sh" build

log "Confluent's Python client against the registry"
# The tests' databases and the auth service's data: in a folder of their own, removed after.
export TMPDIR="$TOOLS/schema-registry/tmp"
rm -rf "$TMPDIR" && mkdir -p "$TMPDIR"
trap 'rm -rf "$TMPDIR"' EXIT
cd "$ROOT/registry/tests"
REPO_ROOT="$ROOT" REGISTRY_BIN="$BIN/acme-registry" REGISTRY_BUF_CONFIG="$ROOT/buf.yaml" \
  NODE="$NODE_HOME/bin/node" AUTH_NODE_DIR="$ROOT/services/auth-node" \
  "$venv/bin/python" -m unittest -v test_confluent_client test_auth
