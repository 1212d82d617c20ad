#!/usr/bin/env bash
# gate/check.sh — the governance gate: lint, format, breaking (buf and validation rules, against the
# merge base and against every release), versions and drift. Runs every check
# even after one fails, so one run shows everything to fix; exits non-zero if any failed.
# SCHEMA_ONLY=1 checks the schema alone, without versions and drift (the schema-change suite).
source "$(dirname "$0")/../lib.sh"

checks=(lint format breaking releases)
[[ "${SCHEMA_ONLY:-0}" == "1" ]] || checks+=(versions drift)

# The report a pull request shows (its comment and job summary): the breaking report
# (check-breaking.sh writes it) and one line per check.
report_dir="$TOOLS/gate"
mkdir -p "$report_dir" && rm -f "$report_dir/breaking.md" "$report_dir/report.md"

# The working tree is compiled once, for every check that compares it (breaking, releases); when
# it does not compile, each check compiles it itself and says why.
# With GATE_TIMINGS=FILE, each step appends "STEP SECONDS PEAK_KIB EXIT" to FILE (make bench-gate).
timed() {
  local step="$1"
  shift
  if [[ -n "${GATE_TIMINGS:-}" ]]; then
    /usr/bin/time -a -o "$GATE_TIMINGS" -f "$step %e %M %x" "$@"
  else
    "$@"
  fi
}

# The working tree is compiled once, for every check that compares it (breaking, releases); when
# it does not compile, each check compiles it itself and says why.
head_dir="$(mktemp -d)" && trap 'rm -rf "$head_dir"' EXIT
export GATE_HEAD_IMAGE="$head_dir/head.binpb"
(cd "$ROOT" && timed compile buf build proto -o "$GATE_HEAD_IMAGE" 2>/dev/null) || unset GATE_HEAD_IMAGE

failed=() rows=()
for check in "${checks[@]}"; do
  log "check: $check"
  if timed "$check" "$ROOT/scripts/gate/check-$check.sh"; then
    rows+=("| $check | pass |")
  else
    failed+=("$check") rows+=("| $check | **FAIL** |")
  fi
done
{
  if [[ -f "$report_dir/breaking.md" ]]; then cat "$report_dir/breaking.md"; else echo "<!-- contracts-gate-report -->"; fi
  printf '\n| check | result |\n|---|---|\n'
  printf '%s\n' "${rows[@]}"
} >"$report_dir/report.md"
[[ -z "${GITHUB_STEP_SUMMARY:-}" ]] || cat "$report_dir/report.md" >>"$GITHUB_STEP_SUMMARY"
if ((${#failed[@]})); then
  echo "governance gate FAILED: ${failed[*]} (report: .tmp/gate/report.md)" >&2
  exit 1
fi
echo "governance gate passed: ${checks[*]} (report: .tmp/gate/report.md)"
