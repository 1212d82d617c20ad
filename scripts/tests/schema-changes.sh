#!/usr/bin/env bash
# tests/schema-changes.sh — the schema-change suite (governance-tests/schema-changes): every edit in
# its table is committed to a throwaway copy of the repo and judged by the real gate.
# Cases run side by side, one per core (pytest-xdist): each works in a clone and output folder of
# its own, so no verdict depends on which ran first. The cases that share a costly fixture (the
# 60-file drift tree, the modified gate) stay together on one worker (their xdist_group), so it is
# made once. Pass -n 0 to run them one after the other.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT/governance-tests/schema-changes"
exec python -m pytest -q -p no:cacheprovider -n auto --dist loadgroup "$@"
