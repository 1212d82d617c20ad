#!/usr/bin/env bash
# tests/all.sh — `make test`, and so `.ci/run`: every test suite of the repository, one after
# the other. A failing suite does not stop the others, so one run reports everything; the
# last line counts suites in the plain "N passed, N failed" form.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"

"$ROOT/scripts/setup/tools.sh"

suites=(
  "workflows|scripts/gate/lint-workflows.sh"
  "governance-gate|scripts/gate/gate check"
  "gate-unit|scripts/tests/gate-unit.sh"
  "schema-changes|scripts/tests/schema-changes.sh"
  "docs|scripts/tests/docs.sh"
  "sdk-java|scripts/sdk/java.sh test"
  "sdk-ts|scripts/sdk/ts.sh test"
  "sdk-python|scripts/sdk/python.sh test"
  "auth-node|scripts/services/auth-node.sh test"
  "auth-node-postgres|scripts/services/auth-node.sh test-postgres"
  "submodule-consumer|scripts/tests/submodule-consumer.sh"
  "person-spring|scripts/services/test-person.sh"
  "person-spring-postgres|scripts/services/test-person-postgres.sh"
  "web-proxy|scripts/services/web-proxy.sh test"
  "crash|scripts/tests/crash.sh"
  "compatibility|scripts/tests/compat.sh"
  "demo|scripts/tests/demo.sh"
  "web-page|scripts/tests/web-page.sh"
  "registries|scripts/tests/registries.sh"
  "schema-registry|scripts/tests/schema-registry.sh"
  "release|scripts/tests/release.sh"
  "fuzz|scripts/tests/fuzz.sh 20000"
  "soak-smoke|scripts/tests/soak.sh 3 5"
  "bench-smoke|scripts/bench/run.sh smoke"
  "bench-gate-smoke|scripts/bench/gate.sh smoke"
  "charts|scripts/tests/charts.sh"
)

# Each suite's output is also kept in .tmp/test-logs/, and a failed suite's last lines are
# printed again before the summary, its lines that say what failed under it: CI keeps only the
# end of a run's output, and the cause of a failure must be in it.
logs="$TOOLS/test-logs"
rm -rf "$logs" && mkdir -p "$logs"
passed=0 failed=0 report=() failures=()
for entry in "${suites[@]}"; do
  name="${entry%%|*}" cmd="${entry#*|}"
  log "suite: $name ($cmd)"
  start=$SECONDS
  if bash -c "set -o pipefail; ($cmd) 2>&1 | tee '$logs/$name.log'"; then
    passed=$((passed + 1)) verdict=pass
  else
    failed=$((failed + 1)) verdict=FAIL failures+=("$name")
  fi
  report+=("$name $verdict $((SECONDS - start))s")
done

for name in "${failures[@]}"; do
  echo
  echo "── the last 60 lines of the failed suite $name (whole log: .tmp/test-logs/$name.log) ──"
  tail -n 60 "$logs/$name.log"
done
echo
# CI's record keeps only the last twenty-odd lines: the table is short, and the lines that say
# why each suite failed go under it, before the count.
echo "Test suites (name, verdict, time):"
printf '%s\n' "${report[@]}" | paste -d, - - - - | sed 's/,*$//; s/,/,  /g; s/^/  /'

for name in "${failures[@]}"; do
  echo "why $name failed (.tmp/test-logs/$name.log):"
  { grep -E 'PROBLEM|error|Error|FAIL|[Ff]ailed|assert' "$logs/$name.log" || tail -n 8 "$logs/$name.log"; } | tail -n 8 | cut -c1-300
done
echo "suites: $passed passed, $failed failed"
((failed == 0))
