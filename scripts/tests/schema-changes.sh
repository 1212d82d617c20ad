#!/usr/bin/env bash
# tests/schema-changes.sh — the schema-change suite (governance-tests/schema-changes): every edit in
# its table is committed to a throwaway copy of the repo and judged by the real gate.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT/governance-tests/schema-changes"
exec python -m pytest -q -p no:cacheprovider "$@"
