#!/usr/bin/env bash
# gate/check-releases.sh — the working tree against every release (tags v*), not only against the
# merge base: a change compatible with the last release can still break an earlier one, whose
# clients are still out there (a field deleted in one release, its number reused with another
# type in the next). Same rules as check-breaking.sh: buf's (the root buf.yaml's breaking
# config) and the validation rules' (validation-diff.mjs); releases-report.py judges the
# findings and prints, for each, the releases it breaks.
#
# A release that accepted a break with a reason (make release REASON=…) recorded each accepted
# finding in its tag as an "Accepted-Break: RULE ELEMENT" line; that waives exactly those
# findings against the releases before it, and nothing else — an accepted deletion does not let
# a later reuse of the number through.
#
# Each release's image (buf build -o) is compiled once and cached by commit (release-image.sh),
# so a check costs one buf breaking per release.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"

mapfile -t tags < <(git tag --list 'v[0-9]*' --sort=-v:refname)
out="$TOOLS/gate/releases"
rm -rf "$out" && mkdir -p "$out"
if ((${#tags[@]} == 0)); then
  echo "releases: no release tag yet, nothing to compare with"
  echo '{"releases":[],"findings":[]}' >"$out/summary.json"
  exit 0
fi
head_image="${GATE_HEAD_IMAGE:-$out/head.binpb}"
[[ -n "${GATE_HEAD_IMAGE:-}" ]] || buf build proto -o "$head_image"

# compare TAG — TAG's findings into $out/TAG.{buf,rules}.jsonl and its accepted breaks into
# $out/TAG.accepted.
compare() {
  local tag="$1" image f rc
  image="$(scripts/gate/release-image.sh "$tag")"
  echo "$image" >"$out/$tag.image"
  : >"$out/$tag.buf.jsonl" && : >"$out/$tag.rules.jsonl"
  git tag --list --format='%(contents)' "$tag" | sed -n 's/^Accepted-Break: //p' >"$out/$tag.accepted"
  # Only the files that changed since the release can break it (buf's FILE rules and the rule
  # diff judge file by file; a moved message changes both files): compare just those, and
  # nothing when none changed. A deleted file makes it the whole tree, so its loss is judged.
  local changed=() paths=() files=() only=()
  mapfile -t changed < <(git diff --name-only "$tag" -- proto | grep '\.proto$' || true)
  ((${#changed[@]})) || return 0
  for f in "${changed[@]}"; do
    [[ -f "$f" ]] || { paths=() files=(); break; }
    paths+=(--path "${f#proto/}") files+=("${f#proto/}")
  done
  ((${#files[@]} == 0)) || only=(--only "$(IFS=,; echo "${files[*]}")")
  rc=0
  buf breaking "$head_image" --against "$image" --exclude-imports --config buf.yaml --error-format=json "${paths[@]}" \
    >"$out/$tag.buf.jsonl" || rc=$?
  ((rc == 0 || rc == 100)) || die "buf breaking against $tag failed (exit $rc)"
  rc=0
  node scripts/gate/validation-diff.mjs "$image" "$head_image" --format json "${only[@]}" >"$out/$tag.rules.jsonl" || rc=$?
  ((rc == 0 || rc == 100)) || die "validation-diff.mjs against $tag failed (exit $rc)"
}

# The releases are independent: compared side by side, one per core.
jobs="$(nproc)" pids=()
for tag in "${tags[@]}"; do
  compare "$tag" &
  pids+=($!)
  if ((${#pids[@]} >= jobs)); then
    wait "${pids[0]}" || die "the comparison with a release failed (above)"
    pids=("${pids[@]:1}")
  fi
done
for pid in "${pids[@]}"; do wait "$pid" || die "the comparison with a release failed (above)"; done

manifest=()
for tag in "${tags[@]}"; do
  manifest+=(--release "$tag" "$(cat "$out/$tag.image")" "$out/$tag.buf.jsonl" "$out/$tag.rules.jsonl" "$out/$tag.accepted")
done

"$VENV/bin/python" scripts/gate/releases-report.py --head "$head_image" \
  --exceptions proto/breaking-exceptions.yaml --summary-json "$out/summary.json" "${manifest[@]}"
