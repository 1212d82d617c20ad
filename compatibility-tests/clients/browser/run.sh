#!/usr/bin/env bash
# run.sh — runs the built browser client (build.sh first) with the project's Node; `exec` is the
# only mode (compatibility-tests/README.md). No building here.
source "$(dirname "$0")/../../../scripts/lib.sh"
exec node "$ROOT/compatibility-tests/clients/browser/dist/main.js" "$@"
