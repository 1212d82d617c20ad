#!/usr/bin/env bash
# sdk/ts.sh [build|test] — the TypeScript SDK as an npm package: tsc to JS + .d.ts, then
# `npm pack`. `test` installs the packed tarball into a throwaway consumer project and runs
# the smoke tests there, so they see the package exactly as a user's `npm install` would; the
# retry policy's test (test/retry.test.mjs) runs Connect for Node's client and server there.
source "$(dirname "$0")/../lib.sh"
mode="${1:-build}"
cd "$ROOT"
mkdir -p dist/ts
# A build asked for again with the same inputs, whose output (gen/ts/dist, which the workspace's
# services use, and the tarball) is unchanged, is skipped, as sdk/java.sh's. `test` always builds.
inputs="$(inputs_hash gen/ts gen/service-config.json package.json package-lock.json versions.env scripts/sdk/ts.sh)"
tarball="acme-contracts-$SDK_VERSION.tgz" stamp="$TOOLS/sdk-built/ts"
made() { echo "dist/ts/$tarball"; [[ -d gen/ts/dist ]] && find gen/ts/dist -type f | LC_ALL=C sort; }
mapfile -t output < <(made)
if [[ "$mode" != test && "$(cat "$stamp" 2>/dev/null)" == "$(built_stamp "$inputs" "${output[@]}")" ]]; then
  echo "ts sdk: built from these inputs already (unchanged)"
else
  rm -f "$stamp"
  npm run --silent build -w gen/ts
  tarball="$(cd dist/ts && npm pack --silent --ignore-scripts "$ROOT/gen/ts" | tail -n 1)" # built just above
  mapfile -t output < <(made)
  mkdir -p "$(dirname "$stamp")" && built_stamp "$inputs" "${output[@]}" >"$stamp"
fi
echo "ts sdk: dist/ts/$tarball"
[[ "$mode" == "test" ]] || exit 0

consumer="$(mktemp -d)"
trap 'rm -rf "$consumer"' EXIT
cp -r gen/ts/test "$consumer/test"
(
  cd "$consumer"
  echo '{"name":"sdk-consumer","private":true,"type":"module"}' >package.json
  npm install --silent --no-audit --no-fund --ignore-scripts "$ROOT/dist/ts/$tarball" \
    "@bufbuild/protovalidate@$PROTOVALIDATE_ES_VERSION" \
    "@connectrpc/connect@$CONNECT_ES_VERSION" "@connectrpc/connect-node@$CONNECT_ES_VERSION" >/dev/null
  node --test test/*.test.mjs
)
