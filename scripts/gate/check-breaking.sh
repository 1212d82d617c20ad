#!/usr/bin/env bash
# gate/check-breaking.sh — every breaking change of the working tree against a base commit
# (gate/lib-base.sh says which): buf breaking with the contracts' FILE rules, and the
# buf.validate rules buf does not judge (validation-diff.mjs). Each finding is then judged
# against proto/breaking-exceptions.yaml by breaking-report.py, which prints the report and
# writes it as Markdown to .tmp/gate/breaking.md (the pull-request comment). In GitHub Actions
# the findings also become annotations on the proto lines.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/lib-base.sh"
cd "$ROOT"

BASE="$(resolve_base)"
[[ -n "$BASE" ]] || { echo "breaking: skipped, this repository has no commit to compare with yet" && exit 0; }
git cat-file -e "$BASE:buf.yaml" 2>/dev/null && git cat-file -e "$BASE:proto" 2>/dev/null \
  || { echo "breaking: skipped, base $(git rev-parse --short "$BASE") has no contracts yet" && exit 0; }
out="$TOOLS/gate" && mkdir -p "$out/base"
echo "breaking: comparing the working tree with $(git rev-parse --short "$BASE")"
# The base is compiled once per commit (image-at.sh caches it), the working tree once per gate run
# (check.sh: GATE_HEAD_IMAGE); compare.py compares only the files changed since the base, and
# remembers what it found.
base_image="$(scripts/gate/image-at.sh "$BASE")"
head_image="${GATE_HEAD_IMAGE:-$out/base/head.binpb}"
[[ -n "${GATE_HEAD_IMAGE:-}" ]] || buf build proto -o "$head_image"
"$VENV/bin/python" scripts/gate/compare.py --head "$head_image" --out "$out/base" --cache "${COMPARE_CACHE:-$TOOLS/cache/comparisons}" \
  --against base "$base_image" "$(changed_since "$BASE")"
git show "$BASE:proto/breaking-exceptions.yaml" >"$out/base/exceptions.yaml" 2>/dev/null || rm -f "$out/base/exceptions.yaml"
base_exceptions=()
[[ ! -f "$out/base/exceptions.yaml" ]] || base_exceptions=(--base-exceptions "$out/base/exceptions.yaml")

annotations=()
[[ "${GITHUB_ACTIONS:-}" == true ]] && annotations=(--annotations)
"$VENV/bin/python" "$ROOT/scripts/gate/breaking-report.py" \
  --buf "$out/base/base.buf.jsonl" --rules "$out/base/base.rules.jsonl" \
  --base "$base_image" --head "$head_image" \
  --exceptions proto/breaking-exceptions.yaml "${base_exceptions[@]}" \
  --markdown "$out/breaking.md" --summary-json "$out/breaking.json" "${annotations[@]}"
