#!/usr/bin/env bash
# tests/soak.sh [INTERVALS SECONDS] — both services under a steady load from ghz (benchmarks/soak.py):
# `make soak` runs 10 intervals of 60 s and fails on a MISS (a failed call, memory that grows);
# `make test` runs a smoke of 3 × 5 s that only proves the machinery works (timings and memory
# are a benchmark's business, not a test's). Starts the images in the topology
# (compatibility-tests/topology.sh, person-spring's database in a file, its production token
# cache), and stops them afterwards. Report: .tmp/soak/report.json.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
intervals="${1:-10}" seconds="${2:-60}"
out="$TOOLS/soak"
mkdir -p "$out"
judge=()
[[ "$intervals" -ge 10 ]] && judge=(--judge)

"$ROOT/scripts/services/images.sh"
buf build -o "$out/contracts.binpb"
export COMPAT_TOPOLOGY="soak-$$" TOPOLOGY_DATA="$out/person-data-$$" TOPOLOGY_PERSON_ENV="AUTH_CACHE_TTL=5s"
trap '"$ROOT/compatibility-tests/topology.sh" down; rm -rf "$TOPOLOGY_DATA"' EXIT
topology="$("$ROOT/compatibility-tests/topology.sh" up)" || die "the topology did not start (above)"
eval "$topology"
python3 "$ROOT/benchmarks/soak.py" --intervals "$intervals" --seconds "$seconds" "${judge[@]}" \
  --ghz "$BIN/ghz" --grpcurl "$BIN/grpcurl" --protoset "$out/contracts.binpb" --report "$out/report.json"
