#!/usr/bin/env bash
# run.sh — runs the built TypeScript client (build.sh first) with the project's Node; the
# arguments are the client contract's (compatibility-tests/README.md). No building here.
source "$(dirname "$0")/../../../scripts/lib.sh"
exec node "$ROOT/compatibility-tests/clients/ts/dist/main.js" "$@"
