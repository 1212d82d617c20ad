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

export_base "breaking"
out="$TOOLS/gate" && mkdir -p "$out"
echo "breaking: comparing the working tree with $(git rev-parse --short "$BASE")"
# Each side is compiled once, into an image both buf breaking and the rule diff read
# (check.sh compiles the head once for every check: GATE_HEAD_IMAGE).
buf build "$AGAINST/proto" -o "$AGAINST/base.binpb"
head_image="${GATE_HEAD_IMAGE:-$AGAINST/head.binpb}"
[[ -n "${GATE_HEAD_IMAGE:-}" ]] || buf build proto -o "$head_image"

rc=0
buf breaking "$head_image" --against "$AGAINST/base.binpb" --exclude-imports --config buf.yaml --error-format=json \
  >"$AGAINST/buf.jsonl" || rc=$?
# 100: findings (in the file); anything else: buf could not compare (it said why on stderr).
((rc == 0 || rc == 100)) || die "buf breaking failed (exit $rc)"
rc=0
node "$ROOT/scripts/gate/validation-diff.mjs" "$AGAINST/base.binpb" "$head_image" --format json >"$AGAINST/rules.jsonl" || rc=$?
((rc == 0 || rc == 100)) || die "validation-diff.mjs failed (exit $rc)"

annotations=()
[[ "${GITHUB_ACTIONS:-}" == true ]] && annotations=(--annotations)
"$VENV/bin/python" "$ROOT/scripts/gate/breaking-report.py" \
  --buf "$AGAINST/buf.jsonl" --rules "$AGAINST/rules.jsonl" \
  --base "$AGAINST/base.binpb" --head "$head_image" \
  --exceptions proto/breaking-exceptions.yaml --base-exceptions "$AGAINST/proto/breaking-exceptions.yaml" \
  --markdown "$out/breaking.md" --summary-json "$out/breaking.json" "${annotations[@]}"
