#!/usr/bin/env bash
# auth-node.sh [build|test|bench|start] — services/auth-node, the auth service on Node.
# Every mode builds first: the TypeScript SDK (gen/ts/dist, which the service imports as
# the @acme/contracts workspace package), the service's own code generated from the
# health/reflection/google.rpc protos, then tsc. `test` runs its node:test suite, `bench`
# the DTO↔protobuf mapping benchmark, `start` the service in the foreground.
source "$(dirname "$0")/lib.sh"
mode="${1:-build}"
service="$ROOT/services/auth-node"
cd "$ROOT"

npm run --silent build -w gen/ts
(cd "$service" && buf generate --template buf.gen.yaml "$SERVICE_PROTO_DEPS")
# A clean output folder: a test or module deleted from src/ must not live on in dist/.
rm -rf "$service/dist"
npm run --silent build -w services/auth-node

cd "$service"
case "$mode" in
  build) echo "auth-node: built into services/auth-node/dist" ;;
  test) node --test --test-concurrency=1 'dist/test/*.test.js' ;;
  bench)
    node dist/bench/mapping.bench.js
    node dist/bench/login-timing.bench.js
    node dist/bench/protocols.bench.js
    ;;
  start) exec node dist/src/main.js ;;
  *) die "usage: auth-node.sh [build|test|bench|start]" ;;
esac
