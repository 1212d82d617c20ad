#!/usr/bin/env bash
# build.sh — builds the TypeScript driver the way the services are built: the SDK workspace
# package @acme/contracts (tsc into gen/ts/dist), the driver's google/rpc types generated
# from the protos set-up extracted into .tmp/proto-deps-grpc (src/gen, git-ignored), then
# tsc into dist/. Run scripts/setup-tools.sh (make setup) first on a fresh clone.
source "$(dirname "$0")/../../../scripts/lib.sh"
client="$ROOT/compatibility-tests/clients/ts"
cd "$ROOT"
[[ -d node_modules/@acme/compat-client-ts ]] || die "the npm workspace is not installed: run 'make setup'"

npm run --silent build -w gen/ts
(cd "$client" && buf generate --template buf.gen.yaml "$SERVICE_PROTO_DEPS" --path "$SERVICE_PROTO_DEPS/google/rpc")
# A clean output folder: a module deleted from src/ must not live on in dist/.
rm -rf "$client/dist"
npm run --silent build -w compatibility-tests/clients/ts
