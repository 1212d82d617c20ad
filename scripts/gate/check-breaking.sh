#!/usr/bin/env bash
# gate/check-breaking.sh — buf breaking (FILE rules) of the working tree against a base commit.
#
# The base is $BASE_REF when set (CI passes the pull request's base commit), else the
# merge base of HEAD with main (or origin/main). The base's files are taken from git into a
# temporary folder, so uncommitted edits here are compared too. buf cannot compare against
# `.git#ref=…` directly: validate.proto is git-ignored (extracted at set-up), so the base
# copy gets it the way every copy does (contracts_workspace in lib.sh).
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"

resolve_base() {
  if [[ -n "${BASE_REF:-}" ]]; then
    git rev-parse --verify -q "$BASE_REF^{commit}" || die "BASE_REF=$BASE_REF is not a commit here (fetch it first)"
    return
  fi
  git rev-parse --verify -q HEAD >/dev/null || return 0 # no commit yet: nothing to compare with
  local branch
  for branch in main origin/main; do
    if git rev-parse --verify -q "$branch" >/dev/null; then
      git merge-base HEAD "$branch"
      return
    fi
  done
  die "no 'main' or 'origin/main' branch to compare with; set BASE_REF to a commit"
}

base="$(resolve_base)"
if [[ -z "$base" ]]; then
  echo "buf breaking: skipped, this repository has no commit to compare with yet"
  exit 0
fi

against="$(mktemp -d)"
trap 'rm -rf "$against"' EXIT
git archive "$base" | tar -x -C "$against"
if [[ ! -f "$against/buf.yaml" || ! -d "$against/proto" ]]; then
  echo "buf breaking: skipped, base $(git rev-parse --short "$base") has no contracts yet"
  exit 0
fi
contracts_workspace "$against"

echo "buf breaking: comparing the working tree with $(git rev-parse --short "$base")"
buf breaking --against "$against" --error-format=msvs
