#!/usr/bin/env bash
# gate/check-releases.sh — the working tree against every release (tags v*), not only against the
# merge base: a change compatible with the last release can still break an earlier one, whose
# clients are still out there (a field deleted in one release, its number reused with another
# type in the next). Same rules as check-breaking.sh: buf's (the root buf.yaml's breaking
# config) and the validation rules' (validation-diff.mjs); releases-report.py judges the
# findings and prints, for each, the releases it breaks.
#
# A release that accepted a break with a reason (make release REASON=…) recorded each accepted
# finding in its tag's message (releases-report.py writes and reads those lines); that waives
# exactly those findings against the releases before it, and nothing else — an accepted deletion
# does not let a later reuse of the number through.
#
# Each release's image (buf build -o) is compiled once and cached by commit (image-at.sh); each
# comparison runs on the files changed since that release (compare.py says which and why), all
# side by side, and is remembered (COMPARE_CACHE=DIR chooses where): a second run on the same
# tree compares nothing again.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/lib-base.sh"
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

# Per release: its image, the proto files changed since it (compare.py: a deleted file means the
# whole tree; none, nothing can break it) and its tag's message (the breaks it accepted). Each
# git and image lookup is one process for all releases; only the changed files are asked per
# release.
mapfile -t images < <(scripts/gate/image-at.sh "${tags[@]}")
((${#images[@]} == ${#tags[@]})) || die "could not compile every release (above)"
git for-each-ref --format='@@release %(refname:short)%0a%(contents)' "${tags[@]/#/refs/tags/}" \
  | awk -v out="$out" '/^@@release / { file = out "/" $2 ".message"; printf "" >file; next } { print >file }'
mapfile -t changed < <(changed_since "${tags[@]}")
against=() manifest=()
for i in "${!tags[@]}"; do
  tag="${tags[i]}" image="${images[i]}"
  against+=(--against "$tag" "$image" "${changed[i]}")
  manifest+=(--release "$tag" "$image" "$out/$tag.buf.jsonl" "$out/$tag.rules.jsonl" "$out/$tag.message")
done
"$VENV/bin/python" scripts/gate/compare.py --head "$head_image" --out "$out" --cache "${COMPARE_CACHE:-$TOOLS/cache/comparisons}" "${against[@]}"

"$VENV/bin/python" scripts/gate/releases-report.py --head "$head_image" \
  --exceptions proto/breaking-exceptions.yaml --summary-json "$out/summary.json" "${manifest[@]}"
