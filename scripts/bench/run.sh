#!/usr/bin/env bash
# bench/run.sh [full|smoke] [--scenarios-only] — the benchmarks (benchmarks/): the field reports' scenarios against
# the service images, started by the compatibility harness's Topology in Testcontainers, with
# ghz and h2load as outside cross-checks; then benchmarks/report/report.py writes the report
# and charts. `make bench` (full, about 25 minutes on 2 cores) writes benchmarks/results/,
# which docs/performance.md shows; `make test` runs the smoke plan (every scenario at tiny sizes) into
# .tmp/bench-smoke/ and fails if the machinery breaks — timings are never judged there, so the
# store's part runs beside the scenarios. --scenarios-only (make bench-scenarios) skips the store's
# part and reports the store-*.json the last `make bench-store` left in benchmarks/results/: the
# two parts take the machine for about an hour together, and either can be measured again alone.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
plan="${1:-full}" store=1
[[ "${2:-}" == --scenarios-only ]] && store=""
case "$plan" in
  full) out="$ROOT/benchmarks/results" check=() ;;
  smoke) out="$TOOLS/bench-smoke" check=(--check) ;;
  *) die "usage: bench.sh full|smoke" ;;
esac
# BENCH_STEPS (parts of step names, comma-separated; Bench.step): those steps alone, into a
# folder of their own with no store part and no report — benchmarks/results/ keeps the last
# whole run, whose report needs every step.
if [[ -n "${BENCH_STEPS:-}" ]]; then
  [[ "$plan" == full ]] || die "BENCH_STEPS is for the full plan"
  out="$TOOLS/bench-steps" store=""
fi
export TESTCONTAINERS_RYUK_DISABLED=true TESTCONTAINERS_HOST_OVERRIDE=localhost TESTCONTAINERS_CHECKS_DISABLE=true

command -v h2load >/dev/null || { log "installing h2load (Debian's nghttp2-client)"; apt_install nghttp2-client; }
"$ROOT/scripts/services/images.sh"
# The clients: the Java SDK and the benchmark program, the TypeScript SDK for Connect for
# Node (benchmarks/node), the Python SDK and matplotlib (benchmarks/python).
"$ROOT/scripts/sdk/java.sh" build >/dev/null
"${MVN[@]}" -q -pl benchmarks -am package -DskipTests
ts_sdk_build
sdk_venv "$TOOLS/bench/venv" "$ROOT/benchmarks/python/requirements.txt"

rm -rf "$out/work" && mkdir -p "$out"
start=$SECONDS
target=benchmarks/target
scenarios() {
  GHZ_VERSION="$GHZ_VERSION" java -cp "$target/classes:$(cat "$target/classpath.txt")" com.acme.bench.Bench \
    "$ROOT" "$out" "$plan" "$TOOLS/bench/venv/bin/python"
}
bench_status=0 store_pid=""
if [[ "$plan" == smoke ]]; then
  # The smoke proves the machinery, not the numbers: the store's part runs on its topology
  # beside the scenarios instead of after them, since much of either is a service starting
  # (make bench keeps them apart, as every figure there must have the machine to itself). Its
  # topology starts once the scenarios' services are up (Bench writes work/smoke-services-up):
  # one service starting at a time.
  scenarios &
  bench_pid=$!
  (
    until [[ -f "$out/work/smoke-services-up" ]]; do
      kill -0 "$bench_pid" 2>/dev/null || die "the scenarios ended before their services were up"
      sleep 1
    done
    "$ROOT/scripts/bench/store.sh" "$plan" "$out"
  ) 2>&1 | sed -u 's/^/[store] /' &
  store_pid=$!
  wait "$bench_pid" || bench_status=$?
else
  scenarios || bench_status=$?
fi
log "scenarios ran in $((SECONDS - start)) s"
# The store's own benchmarks (writers before and after, a million people on both stores).
if [[ -n "$store_pid" ]]; then
  store_status=0
  wait "$store_pid" || store_status=$?
  log "the store's smoke ended $((SECONDS - start)) s after the scenarios began"
  ((store_status == 0)) || die "the store's smoke failed (exit $store_status)"
fi
((bench_status == 0)) || die "the scenarios failed (exit $bench_status)"
[[ -n "$store_pid" || -z "$store" ]] || "$ROOT/scripts/bench/store.sh" "$plan" "$out"
if [[ -n "${BENCH_STEPS:-}" ]]; then
  log "the steps' figures: $out/results.json (no report: BENCH_STEPS)"
else
  "$TOOLS/bench/venv/bin/python" benchmarks/report/report.py "$out/results.json" "$out" "${check[@]}"
fi
rm -rf "$out/work"
