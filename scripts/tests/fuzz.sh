#!/usr/bin/env bash
# tests/fuzz.sh [INPUTS] — the fuzz suite (fuzz/README.md) against both services in their images:
# builds the images, starts the topology (compatibility-tests/topology.sh, its own name, with
# person-spring's H2 database in a file), fuzzes auth-node and person-spring side by side with
# INPUTS inputs each (FUZZ_INPUTS), then stops the topology. `make test-fuzz` runs 10,000 per service (part
# of make test), `make fuzz` 200,000. FUZZ_SEED chooses the inputs (the same seed, the same
# inputs); reports and logs go to .tmp/fuzz/.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
inputs="${1:-${FUZZ_INPUTS:-10000}}"
out="$TOOLS/fuzz"
mkdir -p "$out"

"$ROOT/scripts/services/images.sh"
sdk_venv "$out/venv" "$ROOT/fuzz/requirements.txt"
# The suite's own unit tests (fuzz/tests) first: the code that judges the services must be right.
(cd "$ROOT/fuzz" && "$out/venv/bin/python" -m unittest discover -s tests -q) || die "the fuzz suite's own tests failed"
m2="$M2"
# The person service's own decoder, for the oracle: the Java SDK and its runtime.
export FUZZ_JAVA_CLASSPATH="$m2/com/acme/contracts/acme-contracts/$SDK_VERSION/acme-contracts-$SDK_VERSION.jar:$m2/com/google/protobuf/protobuf-java/$PROTOBUF_JAVA_VERSION/protobuf-java-$PROTOBUF_JAVA_VERSION.jar:$m2/build/buf/protovalidate/$PROTOVALIDATE_JAVA_VERSION/protovalidate-$PROTOVALIDATE_JAVA_VERSION.jar"
export NODE="$NODE_HOME/bin/node"

# person-spring with its production token cache: the compatibility topology turns it off to
# send every call across to auth-node, which the fuzz suite does not need to prove again.
export COMPAT_TOPOLOGY="fuzz-$$" TOPOLOGY_DATA="$out/person-data-$$" TOPOLOGY_PERSON_ENV="AUTH_CACHE_TTL=5s"
trap '"$ROOT/compatibility-tests/topology.sh" down; rm -rf "$TOPOLOGY_DATA"' EXIT
log "starting the services"
topology="$("$ROOT/compatibility-tests/topology.sh" up)" || die "the topology did not start (above)"
eval "$topology"

# Two workers per service, each with its own seed and share of the inputs: a worker waits on
# the service about half of the time, so two keep both cores busy.
workers="${FUZZ_WORKERS:-2}"
seed="${FUZZ_SEED:-20261123}"
log "fuzzing both services: $inputs inputs each, $workers workers per service, seed $seed"
start=$SECONDS
rm -f "$out"/*.json
pids=()
for service in auth-node person-spring; do
  for ((w = 0; w < workers; w++)); do
    (cd "$ROOT/fuzz" && "$out/venv/bin/python" -m acme_fuzz --service "$service" --seed "$((seed + w))" \
      --inputs "$(((inputs + workers - 1) / workers))" --report "$out/$service-$w.json" \
      >"$out/$service-$w.log" 2>"$out/$service-$w.stderr") &
    pids+=($!)
  done
done
crashed=0
for pid in "${pids[@]}"; do wait "$pid" || crashed=1; done
log "fuzzed in $((SECONDS - start)) s; every worker's log and report in $out/"
# A worker that crashed says why on its standard error: print the end of it here, where a CI
# log (which keeps only the end of a run) shows it.
worker_errors() {
  local f
  for f in "$out"/*.stderr; do
    [[ -s "$f" ]] || continue
    echo "── the last lines of ${f#"$ROOT/"} ──"
    tail -n 25 "$f"
  done
}
reports=("$out"/*.json)
if [[ ! -f "${reports[0]}" ]] || ((workers * 2 != ${#reports[@]})); then
  worker_errors
  die "a worker wrote no report (its standard error is above)"
fi
(cd "$ROOT/fuzz" && "$out/venv/bin/python" -m acme_fuzz.summary "${reports[@]}") \
  || die "the fuzz suite found problems (above); a failing input is saved in fuzz/regressions/"
((crashed == 0)) || { worker_errors; die "a fuzz worker failed (its standard error is above)"; }
