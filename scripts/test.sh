#!/usr/bin/env bash
# test.sh — `make test`, and so `.ci/run`: every test suite of the repository, one after
# the other. A failing suite does not stop the others, so one run reports everything; the
# last line counts suites in the plain "N passed, N failed" form.
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

"$ROOT/scripts/setup-tools.sh"

suites=(
  "workflows|scripts/lint-workflows.sh"
  "governance-gate|scripts/check.sh"
  "schema-changes|scripts/test-schema-changes.sh"
  "sdk-java|scripts/sdk-java.sh test"
  "sdk-ts|scripts/sdk-ts.sh test"
  "sdk-python|scripts/sdk-python.sh test"
  "auth-node|scripts/auth-node.sh test"
  "submodule-consumer|scripts/test-submodule-consumer.sh"
  "person-spring|scripts/test-person-spring.sh"
  "person-spring-postgres|scripts/test-person-postgres.sh"
  "compatibility|scripts/test-compat.sh"
  "fuzz|scripts/fuzz.sh 20000"
  "soak-smoke|scripts/soak.sh 3 5"
  "bench-smoke|scripts/bench.sh smoke"
)

passed=0 failed=0 report=()
for entry in "${suites[@]}"; do
  name="${entry%%|*}" cmd="${entry#*|}"
  log "suite: $name ($cmd)"
  start=$SECONDS
  if bash -c "$cmd"; then
    passed=$((passed + 1)) verdict=pass
  else
    failed=$((failed + 1)) verdict=FAIL
  fi
  report+=("$(printf '  %-24s %-4s %4ss' "$name" "$verdict" $((SECONDS - start)))")
done

echo
echo "Test suites"
printf '%s\n' "${report[@]}"
echo "suites: $passed passed, $failed failed"
((failed == 0))
