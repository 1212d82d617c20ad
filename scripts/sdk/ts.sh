#!/usr/bin/env bash
# sdk/ts.sh [build|test] — the TypeScript SDK as an npm package: tsc to JS + .d.ts, then
# `npm pack`. `test` installs the packed tarball into a throwaway consumer project and runs
# the smoke tests there, so they see the package exactly as a user's `npm install` would.
source "$(dirname "$0")/../lib.sh"
mode="${1:-build}"
cd "$ROOT"
mkdir -p dist/ts
npm run --silent build -w gen/ts
tarball="$(cd dist/ts && npm pack --silent --ignore-scripts "$ROOT/gen/ts" | tail -n 1)" # built just above
echo "ts sdk: dist/ts/$tarball"
[[ "$mode" == "test" ]] || exit 0

consumer="$(mktemp -d)"
trap 'rm -rf "$consumer"' EXIT
cp -r gen/ts/test "$consumer/test"
(
  cd "$consumer"
  echo '{"name":"sdk-consumer","private":true,"type":"module"}' >package.json
  npm install --silent --no-audit --no-fund --ignore-scripts "$ROOT/dist/ts/$tarball" \
    "@bufbuild/protovalidate@$PROTOVALIDATE_ES_VERSION" >/dev/null
  node --test test/*.test.mjs
)
