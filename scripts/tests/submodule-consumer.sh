#!/usr/bin/env bash
# tests/submodule-consumer.sh — the git-submodule consumer path (governance-tests/submodule-consumer):
# real bare repositories in a temporary folder, a service repository made from
# consumers/submodule-template-ts, and its bump command through safe, untagged, breaking and
# overridden contract changes, then a --recurse-submodules clone that must build.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT/governance-tests/submodule-consumer"
exec python -m pytest -q -p no:cacheprovider "$@"
