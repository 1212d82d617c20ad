#!/usr/bin/env bash
# tests/all.sh — `make test`, and so `.ci/run`: every test suite of the repository, in two lanes
# (below). A failing suite does not stop the others, so one run reports everything; the last
# line counts suites in the plain "N passed, N failed" form.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"

"$ROOT/scripts/setup/tools.sh"

# The main lane runs its suites one after the other; the release suite runs beside them, in a
# lane of its own, from the start. It is the longest (about 13 minutes alone) and alone kept 65 %
# of the machine's CPUs busy: most of its time waits on registries, docker builds and its
# harness's sessions. The main lane begins with the suites that also leave a core idle (40–70 %
# alone: the SDKs, the services' suites, compatibility, the page, the schema registry), so the
# two fill each other's gaps; the suites that keep both cores busy (the gate's, crash,
# scale, fuzz) and the benchmark smokes come after, when the release suite has most likely ended.
# Nothing the two lanes write is shared: the release suite works in a copy of the tree with its
# own image tag, registries, ports, topology and Maven repository (copied from the shared one),
# and the service images both lanes use are built before they start.
# name | the most minutes it may take (about 2.5 times its time alone on a 2-core machine: a
# suite that hangs fails at its limit instead of eating CI's whole budget) | its command.
suites=(
  "workflows|2|scripts/gate/lint-workflows.sh"
  "governance-gate|5|scripts/gate/gate check"
  "docs|2|scripts/tests/docs.sh"
  "sdk-java|6|scripts/sdk/java.sh test"
  "sdk-ts|4|scripts/sdk/ts.sh test"
  "sdk-python|5|scripts/sdk/python.sh test"
  "auth-node|5|scripts/services/auth-node.sh test"
  "auth-node-postgres|6|scripts/services/auth-node.sh test-postgres"
  "person-spring|8|scripts/services/test-person.sh"
  "person-spring-postgres|5|scripts/services/test-person-postgres.sh"
  "web-proxy|3|scripts/services/web-proxy.sh test"
  "compatibility|10|scripts/tests/compat.sh"
  "web-page|5|scripts/tests/web-page.sh"
  "schema-registry|6|scripts/tests/schema-registry.sh"
  "demo|10|scripts/tests/demo.sh"
  "gate-unit|5|scripts/tests/gate-unit.sh"
  "schema-changes|10|scripts/tests/schema-changes.sh"
  "submodule-consumer|8|scripts/tests/submodule-consumer.sh"
  "crash|15|scripts/tests/crash.sh"
  "scale|14|scripts/tests/scale.sh"
  "fuzz|10|scripts/tests/fuzz.sh 10000"
  "soak-smoke|5|scripts/tests/soak.sh 3 5"
  "bench-smoke|10|scripts/bench/run.sh smoke"
  "bench-gate-smoke|4|scripts/bench/gate.sh smoke"
)
# (The release suite's limit is 2.5 times its time alone and more: beside the main lane it
# takes longer.) After it, two suites that leave much of the machine idle alone (registries
# 42 %, charts 61 %) and wait on no timer, beside the busier suites of the main lane.
beside=(
  "release|35|scripts/tests/release.sh"
  "registries|6|scripts/tests/registries.sh"
  "charts|8|scripts/tests/charts.sh"
)

# Each suite's output is also kept in .tmp/test-logs/, and a failed suite's last lines are
# printed again before the summary, its lines that say what failed under it: CI keeps only the
# end of a run's output, and the cause of a failure must be in it.
logs="$TOOLS/test-logs"
rm -rf "$logs" && mkdir -p "$logs"

# What both lanes use and would each build on first use, made once before they start: the
# Docker engine, the base images and the three service images of this tree (two builds of an
# image that is not current would write the same target/ and dist/ folders at once). Every later
# call finds them current by their inputs' label. A failed build fails the suites that need the
# images, not the run.
"$ROOT/scripts/services/images.sh" \
  || echo "PROBLEM: the service images could not be built (above): the suites that run them will fail"

# busy_ticks — the machine's busy and total CPU ticks so far (/proc/stat's first line: user, nice,
# system, idle, iowait, irq, softirq, steal). The share of the machine's CPUs kept busy while a
# suite ran is printed beside its time: a low share is time a suite beside it could use. While
# the lanes overlap, the share is both lanes' work.
busy_ticks() {
  local _ user nice system idle iowait irq softirq steal
  read -r _ user nice system idle iowait irq softirq steal _ </proc/stat
  echo "$((user + nice + system + irq + softirq + steal)) $((user + nice + system + idle + iowait + irq + softirq + steal))"
}
# run_lane LANE SHOW ENTRY… — the suites one after the other, each under its limit; a line per
# suite (name, verdict, seconds, share) in $logs/LANE.report. SHOW: the suites' output on this
# terminal too (the main lane), or only in their logs (the beside lane: two suites' lines
# interleaved would make either unreadable), with a line when each starts and ends.
run_lane() {
  local lane="$1" show="$2" entry name minutes cmd start busy0 total0 busy1 total1 verdict status out
  shift 2
  for entry in "$@"; do
    IFS='|' read -r name minutes cmd <<<"$entry"
    if [[ "$show" == yes ]]; then
      log "suite: $name ($cmd, at most $minutes min)"
    else
      log "suite: $name ($cmd, at most $minutes min) starts beside the main lane, its output in .tmp/test-logs/$name.log"
    fi
    start=$SECONDS
    read -r busy0 total0 < <(busy_ticks)
    out="| tee '$logs/$name.log'"
    [[ "$show" == yes ]] || out=">'$logs/$name.log'"
    # timeout signals the suite's whole process group (SIGTERM, then SIGKILL 60 s later), so its
    # traps still stop the containers and servers it started; its pid is kept so that all.sh
    # stopped early can stop the suite a lane is running.
    timeout --kill-after=60 "${minutes}m" bash -c "set -o pipefail; ($cmd) 2>&1 $out" &
    echo "$!" >"$logs/$lane.running"
    if wait "$!"; then
      verdict=pass
    else
      status=$? verdict=FAIL
      if ((status == 124 || status == 137)); then
        echo "PROBLEM: suite $name did not end within its $minutes minutes and was stopped" | tee -a "$logs/$name.log"
      fi
    fi
    rm -f "$logs/$lane.running"
    read -r busy1 total1 < <(busy_ticks)
    echo "$name $verdict $((SECONDS - start))s $(( (busy1 - busy0) * 100 / (total1 - total0 > 0 ? total1 - total0 : 1) ))%" >>"$logs/$lane.report"
    [[ "$show" == yes ]] || log "suite: $name ended beside the main lane: $verdict in $((SECONDS - start)) s"
  done
}
# Stopped early (Ctrl-C, CI's limit), all.sh stops both lanes with it: the beside lane first (so
# it starts no further suite), then each lane's running suite through its timeout, which passes
# the signal to the suite's process group; their traps get a moment to stop what they started.
stop_lanes() {
  local f pids=()
  if [[ -n "${beside_lane:-}" ]]; then kill "$beside_lane" 2>/dev/null || true; fi
  for f in "$logs"/*.running; do
    if [[ -f "$f" ]]; then pids+=("$(cat "$f")"); kill -TERM "${pids[-1]}" 2>/dev/null || true; fi
  done
  for _ in $(seq 30); do
    kill -0 "${pids[@]}" 2>/dev/null || break
    sleep 1
  done
}
trap 'stop_lanes' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
: >"$logs/main.report"
: >"$logs/beside.report"
run_lane beside no "${beside[@]}" &
beside_lane=$!
run_lane main yes "${suites[@]}"
kill -0 "$beside_lane" 2>/dev/null && log "the main lane has ended; waiting for the suites beside it"
wait "$beside_lane" || true
beside_lane=""
trap - EXIT INT TERM

# The table lists every suite in its lane's order; one that left no line (its lane's shell died
# before the suite ended) failed.
report=() failures=() passed=0
for entry in "${suites[@]}" "${beside[@]}"; do
  name="${entry%%|*}"
  line="$(grep -h "^$name " "$logs/main.report" "$logs/beside.report" 2>/dev/null || echo "$name FAIL never-ran -")"
  report+=("$line")
  if [[ "$line" == "$name pass "* ]]; then passed=$((passed + 1)); else failures+=("$name"); fi
done
failed=${#failures[@]}

for name in "${failures[@]}"; do
  echo
  echo "── the last 60 lines of the failed suite $name (whole log: .tmp/test-logs/$name.log) ──"
  tail -n 60 "$logs/$name.log" 2>/dev/null || true
done
echo
# CI's record keeps only the last twenty-odd lines: the table is short, and the lines that say
# why each suite failed go under it, before the count.
echo "Test suites (name, verdict, time, share of the machine's CPUs kept busy; the last ${#beside[@]}, ${beside[*]%%|*}, ran beside the others):"
printf '%s\n' "${report[@]}" | paste -d, - - - - | sed 's/,*$//; s/,/,  /g; s/^/  /'

for name in "${failures[@]}"; do
  echo "why $name failed (.tmp/test-logs/$name.log):"
  { grep -E 'PROBLEM|error|Error|FAIL|[Ff]ailed|assert' "$logs/$name.log" 2>/dev/null || tail -n 8 "$logs/$name.log" 2>/dev/null || true; } | tail -n 8 | cut -c1-300
done
echo "suites: $passed passed, $failed failed"
((failed == 0))
