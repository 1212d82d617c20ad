#!/usr/bin/env bash
# run.sh — runs the built TypeScript driver (build.sh first) with the project's Node; the
# arguments are the driver contract's (compatibility-tests/README.md). No building here.
source "$(dirname "$0")/../../../scripts/lib.sh"
exec node "$ROOT/compatibility-tests/clients/ts/dist/main.js" "$@"
