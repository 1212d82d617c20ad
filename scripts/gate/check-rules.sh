#!/usr/bin/env bash
# gate/check-rules.sh — the validation rules (buf.validate) of the working tree against a base
# commit: what buf breaking does not judge. Both are built into buf images and compared by
# validation-diff.mjs, which says how each rule kind is ordered and which direction breaks whom.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/lib-base.sh"
cd "$ROOT"

export_base "validation rules"
buf build "$AGAINST" -o "$AGAINST/base.binpb"
buf build -o "$AGAINST/head.binpb"
echo "validation rules: comparing the working tree with $(git rev-parse --short "$BASE")"
rc=0
node "$ROOT/scripts/gate/validation-diff.mjs" "$AGAINST/base.binpb" "$AGAINST/head.binpb" || rc=$?
case "$rc" in
  0) echo "validation rules: no change breaks a caller" ;;
  100) echo "validation rules: the changes above break callers (a new version beside v1, or an exception: README)" >&2; exit 1 ;;
  *) die "validation-diff.mjs failed (exit $rc)" ;;
esac
