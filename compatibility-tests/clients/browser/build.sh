#!/usr/bin/env bash
# build.sh — builds the browser client: the SDK and the TypeScript client's generated code
# first (this client reuses that client's call logic, its stdin/stdout loop and its generated
# code from its sources, never a copy), a type check of both halves, then esbuild bundles the page (page.ts with the SDK, Connect for Web and the
# TypeScript client's call logic, for the browser) and the Node half (main.ts, its packages
# left to node_modules) into dist/. Chromium itself: scripts/setup/chromium.sh.
source "$(dirname "$0")/../../../scripts/lib.sh"
client="$ROOT/compatibility-tests/clients/browser"
"$ROOT/compatibility-tests/clients/ts/build.sh" generated
"$ROOT/scripts/setup/chromium.sh" >/dev/null
cd "$client"
npm run --silent typecheck
rm -rf dist && mkdir -p dist
esbuild src/page.ts --bundle --format=esm --platform=browser --target=chrome120 --log-level=warning --outfile=dist/page.js
esbuild src/main.ts --bundle --format=esm --platform=node --target=node22 --packages=external --log-level=warning --outfile=dist/main.js
cp src/index.html dist/index.html
