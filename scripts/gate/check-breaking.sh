#!/usr/bin/env bash
# gate/check-breaking.sh — buf breaking (FILE rules) of the working tree against a base commit
# (gate/lib-base.sh says which, and how it is copied).
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/lib-base.sh"
cd "$ROOT"

export_base "buf breaking"
echo "buf breaking: comparing the working tree with $(git rev-parse --short "$BASE")"
buf breaking --against "$AGAINST" --error-format=msvs
