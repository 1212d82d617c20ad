#!/usr/bin/env bash
# build.sh — builds the TypeScript client the way the services are built: the SDK workspace
# package @acme/contracts (tsc into gen/ts/dist), the client's own generated code in src/gen
# (git-ignored): google/rpc types from the protos set-up extracted into .tmp/proto-deps-grpc,
# and the executor protocol; then tsc into dist/. Run scripts/setup/tools.sh (make setup) first
# on a fresh clone.
source "$(dirname "$0")/../../../scripts/lib.sh"
client="$ROOT/compatibility-tests/clients/ts"
cd "$ROOT"
[[ -d node_modules/@acme/compat-client-ts ]] || die "the npm workspace is not installed: run 'make setup'"

ts_sdk_build
(cd "$client" && buf generate --template buf.gen.yaml "$SERVICE_PROTO_DEPS" --path "$SERVICE_PROTO_DEPS/google/rpc")
"$ROOT/compatibility-tests/executor/generate.sh" ts "$client/src/gen/executor"
# `generated`: stop here — the browser client bundles these sources itself.
[[ "${1:-}" == generated ]] && exit 0
# A clean output folder: a module deleted from src/ must not live on in dist/.
rm -rf "$client/dist"
npm run --silent build -w compatibility-tests/clients/ts
