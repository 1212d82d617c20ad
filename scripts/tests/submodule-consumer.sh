#!/usr/bin/env bash
# tests/submodule-consumer.sh — the git-submodule consumer path (governance-tests/submodule-consumer):
# real bare repositories in a temporary folder, service repositories made from both templates
# by their READMEs, and the shared commands through safe, untagged, breaking and overridden
# contract changes, pull-request checks and clones. Tests run in a random order (the seed is
# printed last); pass --order=file|reverse or --order-seed=N to choose.
# Tests run side by side, one per core (pytest-xdist): each works in clones of its own, and the
# repositories every test reads are made once for all workers (conftest.py). -n 0: one by one.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT/governance-tests/submodule-consumer"
exec python -m pytest -q -p no:cacheprovider -n auto "$@"
