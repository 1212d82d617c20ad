#!/usr/bin/env bash
# build.sh — the page into dist/: the SDK package built (gen/ts), a type check, and esbuild's
# bundle of app.ts with the SDK and Connect for Web for the browser. serve.mjs serves dist/.
source "$(dirname "$0")/../../scripts/lib.sh"
page="$ROOT/consumers/web-page"
cd "$ROOT"
ts_sdk_build
cd "$page"
npm run --silent typecheck
rm -rf dist && mkdir -p dist
esbuild src/app.ts --bundle --format=esm --platform=browser --target=chrome120 --minify --sourcemap \
  --log-level=warning --outfile=dist/app.js
cp src/index.html dist/index.html
