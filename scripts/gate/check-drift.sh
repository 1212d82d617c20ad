#!/usr/bin/env bash
# gate/check-drift.sh — the generated-code drift gate: regenerate gen/ (code and the SDKs'
# manifests) and fail if any file changed. The committed SDKs must be exactly what the
# committed protos and versions.env produce; a hand edit under gen/, or a proto change
# without `make gen`, fails here. On a clean checkout (CI) this is the same as requiring
# `git status --porcelain` to stay empty; locally it also works with uncommitted changes.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"

paths=(gen)
# One "hash  path" line per file; a tracked file that regeneration deleted drops out of the
# list (sha256sum skips it), which shows up as a difference like any other.
snapshot() {
  git ls-files --cached --others --exclude-standard -z -- "${paths[@]}" | sort -zu \
    | xargs -0 sha256sum 2>/dev/null || true
}

before="$(snapshot)"
"$ROOT/scripts/gate/gen.sh" >/dev/null
after="$(snapshot)"
if [[ "$before" != "$after" ]]; then
  echo "drift gate: regenerating changed these files (run 'make gen' and commit the result):" >&2
  diff <(echo "$before") <(echo "$after") | sed -n 's/^[<>] [0-9a-f]*  /  /p' | sort -u >&2
  exit 1
fi
echo "drift gate: gen/ is exactly what proto/ and versions.env generate"
