#!/usr/bin/env bash
# gate/check-drift.sh — the generated-code drift gate: gen/ must be exactly what the committed
# protos generate. A hand edit under gen/, a file left from a deleted package, or a proto change
# without `make gen` fails here. gen/ itself is never touched: generation goes to a scratch
# folder, and only the packages whose inputs changed since a run that generated them are
# regenerated (drift.py says how it stays exact; DRIFT_CACHE=DIR chooses where it remembers).
# The SDKs' manifests are not buf's output: `make gen` writes versions.env's versions into them,
# so they drift when one of those versions differs.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"

image="${GATE_HEAD_IMAGE:-}"
if [[ -z "$image" ]]; then
  scratch="$(mktemp -d)" && trap 'rm -rf "$scratch"' EXIT
  image="$scratch/head.binpb"
  buf build proto -o "$image"
fi
rc=0
python3 scripts/gate/versions.py check --only gen/ >/dev/null || rc=1
"$VENV/bin/python" scripts/gate/drift.py --image "$image" --cache "${DRIFT_CACHE:-$TOOLS/cache/drift}" || rc=1
exit "$rc"
