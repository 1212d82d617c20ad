#!/usr/bin/env bash
# bench/gate.sh [full|smoke] — `make bench-gate`: the governance gate at organisation scale. For
# each tree size, a throwaway copy of this repository grows synthetic packages
# (benchmarks/gate/synthetic.py) to that many .proto files, regenerates gen/ and commits it as
# main; RELEASES commits each add a message and are tagged as releases; a branch then touches one
# file, as a pull request does. The whole gate (`gate check`) and each of its steps (it times them
# itself: compiling the working tree once, lint, format, breaking against the base and every
# release, versions, drift) are timed with the peak memory of the largest process, REPEATS times
# after a first run (timed as such: it compiles the release images and fills the caches), on
# main and on the branch; so is the check against every release alone (`gate breaking
# --releases-only`). BENCH_GATE_SIZES chooses the trees of the full plan. The googleapis corpus
# (npm google-proto-files, GOOGLE_PROTO_FILES_VERSION, 7,207 files without its google/protobuf,
# which buf supplies) runs the same gate, and buf's own build, lint and breaking (FILE rules, no
# plugin) on it as the yardstick. Our lint and format rules fail googleapis; every step is timed
# anyway.
#
#   full   4, 100, 1,000 and 5,000 files and googleapis; 20 releases; 3 repetitions
#          → benchmarks/results/gate/ (report.md, results.json)
#   smoke  4 and 100 files; 3 releases; 1 repetition → .tmp/bench-gate-smoke/; fails only when
#          the machinery breaks (part of make test)
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
plan="${1:-full}"
case "$plan" in
  full) sizes=(${BENCH_GATE_SIZES:-4 100 1000 5000 googleapis}) releases=20 repeats=3 out="$ROOT/benchmarks/results/gate" ;;
  smoke) sizes=(4 100) releases=3 repeats=1 out="$TOOLS/bench-gate-smoke" ;;
  *) die "usage: bench/gate.sh full|smoke" ;;
esac
work="$(mktemp -d)" && trap 'rm -rf "$work"' EXIT
# What the gate remembers (compiled images, generated packages, comparisons) is the benchmark's
# own: a first run is then really a first run, and the user's caches get none of these trees;
# so are its findings and report.
export GATE_CACHE="$work/cache" GATE_OUT="$work/out"
mkdir -p "$out" && results="$work/results.jsonl" && : >"$results"
export GIT_AUTHOR_NAME=bench-gate GIT_AUTHOR_EMAIL=bench@example.invalid GIT_COMMITTER_NAME=bench-gate GIT_COMMITTER_EMAIL=bench@example.invalid

# measure SIZE BRANCH STEP REP CMD… — one timed run: elapsed seconds and peak resident memory
# (the largest process) into results.jsonl; a failing step is recorded as failed, not hidden.
measure() {
  local size="$1" branch="$2" step="$3" rep="$4" rc=0
  shift 4
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" >"$work/step.log" 2>&1 || rc=$?
  local seconds kib
  read -r seconds kib < <(tail -n1 "$work/time") # a failed command's first line says its exit status
  printf '{"size":"%s","files":%s,"branch":"%s","step":"%s","rep":%s,"seconds":%s,"peak_mib":%s,"ok":%s}\n' \
    "$size" "$files" "$branch" "$step" "$rep" "$seconds" "$((kib / 1024))" "$([[ $rc == 0 ]] && echo true || echo false)" \
    >>"$results"
  printf '  %-10s %-8s %-9s run %s: %6.2f s %5s MiB%s\n' "$size" "$branch" "$step" "$rep" "$seconds" "$((kib / 1024))" \
    "$([[ $rc == 0 ]] || echo "  (failed: $(grep -m1 -E 'error|FAIL|fail' "$work/step.log" | cut -c1-80))")"
}

# tree SIZE — a copy of this repository (tracked and unignored files, tools linked) whose proto/
# holds SIZE files (or googleapis), generated and committed as main, with the releases tagged.
tree() {
  local size="$1" repo="$work/$1"
  mkdir -p "$repo"
  git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
    [[ -f "$f" ]] && install -D -m "$(stat -c %a "$f")" "$f" "$repo/$f"
  done
  ln -s "$TOOLS" "$repo/.tmp" && ln -s "$ROOT/node_modules" "$repo/node_modules"
  cd "$repo"
  if [[ "$size" == googleapis ]]; then
    local corpus; corpus="$(googleapis)"
    cp -r "$corpus/google" "$corpus/grafeas" proto/ && rm -rf proto/google/protobuf
  else
    python3 "$ROOT/benchmarks/gate/synthetic.py" proto "$size" >/dev/null
  fi
  files="$(find proto -name '*.proto' | wc -l)"
  scripts/gate/gate gen >/dev/null 2>&1 || log "$size: generation fails on this tree (the drift step is timed anyway)"
  git init -q -b main && git add -A && git commit -qm "tree of $files files"
  if [[ "$size" != googleapis ]]; then
    for ((k = 1; k <= releases; k++)); do
      python3 "$ROOT/benchmarks/gate/synthetic.py" proto --release "$k"
      git commit -qam "release $k" && git tag -a "v0.$k.0" -m "release $k"
    done
    scripts/gate/gate gen >/dev/null && git add -A && git commit -qm "generated"
  fi
}

# googleapis — the corpus, installed once into the tool cache; prints its folder.
googleapis() {
  # The package's tarball alone (npm pack): its files are the corpus, its dependencies unneeded.
  local dir="$TOOLS/cache/google-proto-files-$GOOGLE_PROTO_FILES_VERSION"
  if [[ ! -f "$dir/package/package.json" ]]; then
    rm -rf "$dir" && mkdir -p "$dir"
    (cd "$dir" && npm pack -q "google-proto-files@$GOOGLE_PROTO_FILES_VERSION" >/dev/null && tar -xzf ./*.tgz && rm ./*.tgz)
  fi
  echo "$dir/package"
}

# run_gate SIZE BRANCH — the whole gate, timed; the gate times each of its steps itself
# (GATE_TIMINGS), so one run gives the total and every step.
run_gate() {
  local rep step seconds kib status
  # The first run on the tree is timed too: on main nothing of this tree is remembered yet
  # (a fresh clone: releases compiled, every package generated, every comparison made); on the
  # branch, what main's runs remembered is (a pull request where .tmp/cache is kept).
  measure "$1" "$2" first 0 bash scripts/gate/gate check
  for ((rep = 1; rep <= repeats; rep++)); do
    rm -f "$work/steps"
    GATE_TIMINGS="$work/steps" measure "$1" "$2" check "$rep" bash scripts/gate/gate check
    while read -r step seconds kib status; do
      record "$1" "$2" "$step" "$rep" "$seconds" "$kib" "$status"
    done <"$work/steps"
    # The comparison with every release alone, warm (its breaking step, without the compile):
    # what the releases add to a check.
    rm -f "$work/steps"
    GATE_TIMINGS="$work/steps" bash scripts/gate/gate breaking --releases-only >/dev/null 2>&1 || true
    while read -r step seconds kib status; do
      if [[ "$step" == breaking ]]; then record "$1" "$2" releases "$rep" "$seconds" "$kib" "$status"; fi
    done <"$work/steps"
  done
}

# record SIZE BRANCH STEP REP SECONDS PEAK_KIB EXIT — one step the gate timed itself.
record() {
  printf '{"size":"%s","files":%s,"branch":"%s","step":"%s","rep":%s,"seconds":%s,"peak_mib":%s,"ok":%s}\n' \
    "$1" "$files" "$2" "$3" "$4" "$5" "$(($6 / 1024))" "$([[ $7 == 0 ]] && echo true || echo false)" >>"$results"
  printf '  %-10s %-8s %-9s run %s: %6.2f s %5s MiB\n' "$1" "$2" "$3" "$4" "$5" "$(($6 / 1024))"
}

for size in "${sizes[@]}"; do
  log "tree: $size"
  start=$SECONDS
  tree "$size"
  log "$size: $files files, set up in $((SECONDS - start)) s"
  run_gate "$size" main
  if [[ "$size" == googleapis ]]; then
    # buf's own steps on the same tree, in the same run: the yardstick.
    for ((rep = 1; rep <= repeats; rep++)); do
      measure "$size" main buf-build "$rep" buf build proto -o "$work/googleapis.binpb"
      measure "$size" main buf-lint "$rep" buf lint proto
      measure "$size" main buf-breaking "$rep" buf breaking "$work/googleapis.binpb" --against "$work/googleapis.binpb" \
        --config '{"version":"v2","breaking":{"use":["FILE"]}}'
    done
  else
    git checkout -q -b change
    python3 "$ROOT/benchmarks/gate/synthetic.py" proto --touch 0
    scripts/gate/gate gen >/dev/null && git add -A && git commit -qm "one file touched"
    run_gate "$size" change
  fi
  cd "$ROOT" && rm -rf "${work:?}/$size"
done

"$VENV/bin/python" benchmarks/gate/report.py "$results" "$out" "$plan" "$releases"
