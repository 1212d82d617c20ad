#!/usr/bin/env bash
# tests/docs.sh — the docs drift suite (governance-tests/docs): every relative link and
# backticked repository path in the READMEs and docs/ exists, and every count they or the
# Makefile's help state (proto edits, tests, cases, fuzz inputs) equals its source's. Seconds.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT/governance-tests/docs"
exec python -m pytest -q -p no:cacheprovider "$@"
