#!/usr/bin/env bash
# tests/all.sh — `make test`, and so `.ci/run`: every test suite of the repository, one after
# the other. A failing suite does not stop the others, so one run reports everything; the
# last line counts suites in the plain "N passed, N failed" form.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"

"$ROOT/scripts/setup/tools.sh"

# name | the most minutes it may take (about 2.5 times its time alone on a 2-core machine: a
# suite that hangs fails at its limit instead of eating CI's whole budget) | its command.
suites=(
  "workflows|2|scripts/gate/lint-workflows.sh"
  "governance-gate|5|scripts/gate/gate check"
  "gate-unit|5|scripts/tests/gate-unit.sh"
  "schema-changes|10|scripts/tests/schema-changes.sh"
  "docs|2|scripts/tests/docs.sh"
  "sdk-java|6|scripts/sdk/java.sh test"
  "sdk-ts|4|scripts/sdk/ts.sh test"
  "sdk-python|5|scripts/sdk/python.sh test"
  "auth-node|5|scripts/services/auth-node.sh test"
  "auth-node-postgres|6|scripts/services/auth-node.sh test-postgres"
  "submodule-consumer|8|scripts/tests/submodule-consumer.sh"
  "person-spring|8|scripts/services/test-person.sh"
  "person-spring-postgres|5|scripts/services/test-person-postgres.sh"
  "web-proxy|3|scripts/services/web-proxy.sh test"
  "crash|15|scripts/tests/crash.sh"
  "compatibility|10|scripts/tests/compat.sh"
  "demo|10|scripts/tests/demo.sh"
  "scale|14|scripts/tests/scale.sh"
  "web-page|5|scripts/tests/web-page.sh"
  "registries|6|scripts/tests/registries.sh"
  "schema-registry|6|scripts/tests/schema-registry.sh"
  "release|25|scripts/tests/release.sh"
  "fuzz|10|scripts/tests/fuzz.sh 10000"
  "soak-smoke|5|scripts/tests/soak.sh 3 5"
  "bench-smoke|10|scripts/bench/run.sh smoke"
  "bench-gate-smoke|4|scripts/bench/gate.sh smoke"
  "charts|8|scripts/tests/charts.sh"
)

# Each suite's output is also kept in .tmp/test-logs/, and a failed suite's last lines are
# printed again before the summary, its lines that say what failed under it: CI keeps only the
# end of a run's output, and the cause of a failure must be in it.
logs="$TOOLS/test-logs"
rm -rf "$logs" && mkdir -p "$logs"
# busy_ticks — the machine's busy and total CPU ticks so far (/proc/stat's first line: user, nice,
# system, idle, iowait, irq, softirq, steal). The share of the machine's CPUs a suite kept busy is
# printed beside its time: the suites run one after the other, so a low share is time that
# running two side by side could win back, a high one is not.
busy_ticks() {
  local _ user nice system idle iowait irq softirq steal
  read -r _ user nice system idle iowait irq softirq steal _ </proc/stat
  echo "$((user + nice + system + irq + softirq + steal)) $((user + nice + system + idle + iowait + irq + softirq + steal))"
}
passed=0 failed=0 report=() failures=()
for entry in "${suites[@]}"; do
  IFS='|' read -r name minutes cmd <<<"$entry"
  log "suite: $name ($cmd, at most $minutes min)"
  start=$SECONDS
  read -r busy0 total0 < <(busy_ticks)
  # timeout signals the suite's whole process group (SIGTERM, then SIGKILL 60 s later), so its
  # traps still stop the containers and servers it started.
  if timeout --kill-after=60 "${minutes}m" bash -c "set -o pipefail; ($cmd) 2>&1 | tee '$logs/$name.log'"; then
    passed=$((passed + 1)) verdict=pass
  else
    status=$?
    failed=$((failed + 1)) verdict=FAIL failures+=("$name")
    if ((status == 124 || status == 137)); then
      echo "PROBLEM: suite $name did not end within its $minutes minutes and was stopped" | tee -a "$logs/$name.log"
    fi
  fi
  read -r busy1 total1 < <(busy_ticks)
  report+=("$name $verdict $((SECONDS - start))s $(( (busy1 - busy0) * 100 / (total1 - total0 > 0 ? total1 - total0 : 1) ))%")
done

for name in "${failures[@]}"; do
  echo
  echo "── the last 60 lines of the failed suite $name (whole log: .tmp/test-logs/$name.log) ──"
  tail -n 60 "$logs/$name.log"
done
echo
# CI's record keeps only the last twenty-odd lines: the table is short, and the lines that say
# why each suite failed go under it, before the count.
echo "Test suites (name, verdict, time, share of the machine's CPUs kept busy):"
printf '%s\n' "${report[@]}" | paste -d, - - - - | sed 's/,*$//; s/,/,  /g; s/^/  /'

for name in "${failures[@]}"; do
  echo "why $name failed (.tmp/test-logs/$name.log):"
  { grep -E 'PROBLEM|error|Error|FAIL|[Ff]ailed|assert' "$logs/$name.log" || tail -n 8 "$logs/$name.log"; } | tail -n 8 | cut -c1-300
done
echo "suites: $passed passed, $failed failed"
((failed == 0))
