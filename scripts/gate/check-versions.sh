#!/usr/bin/env bash
# gate/check-versions.sh — every version a manifest, workflow or POM names must be versions.env's
# (scripts/gate/versions.py lists each pin). Part of the governance gate: a hand-edited pin fails it.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
python3 scripts/gate/versions.py check
