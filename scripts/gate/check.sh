#!/usr/bin/env bash
# gate/check.sh — the governance gate: lint, format, breaking, rules, versions and drift. Runs every check
# even after one fails, so one run shows everything to fix; exits non-zero if any failed.
# SCHEMA_ONLY=1 checks the schema alone, without versions and drift (the schema-change suite).
source "$(dirname "$0")/../lib.sh"

checks=(lint format breaking rules)
[[ "${SCHEMA_ONLY:-0}" == "1" ]] || checks+=(versions drift)

failed=()
for check in "${checks[@]}"; do
  log "check: $check"
  "$ROOT/scripts/gate/check-$check.sh" || failed+=("$check")
done
if ((${#failed[@]})); then
  echo "governance gate FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "governance gate passed: ${checks[*]}"
