#!/usr/bin/env bash
# gate/lint-workflows.sh — actionlint over .github/workflows, so a broken workflow fails here
# and not only on GitHub. It first proves the linter can fail: a workflow with a known
# mistake must be refused, otherwise a silently disabled actionlint would pass everything.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"

canary="$(mktemp -d)"
trap 'rm -rf "$canary"' EXIT
mkdir -p "$canary/.github/workflows"
cat >"$canary/.github/workflows/broken.yml" <<'YAML'
on: push
jobs:
  build:
    runs-on: ubuntu-24.04
    steps:
      - run: echo "${{ github.event.no_such_context.value }}"
        shell: bsh
YAML
if (cd "$canary" && actionlint >/dev/null 2>&1); then
  die "actionlint accepted a broken workflow; the lint step cannot be trusted"
fi

files=(.github/workflows/*.yml)
actionlint "${files[@]}"
echo "actionlint: ${#files[@]} workflows clean (${files[*]##*/})"

# actionlint checks a call's inputs only for a local reusable workflow: point the caller at
# one, in a scratch repository holding just the two files.
called=.github/workflows/submodule-bump-check.yml
for caller in consumers/submodule-template-*/.github/workflows/contracts.yml; do
  scratch="$canary/caller-$(basename "${caller%%/.github/*}")"
  mkdir -p "$scratch/.github/workflows"
  git init -q "$scratch"
  cp "$called" "$scratch/$called"
  sed 's|uses: acme/contracts/\(.*\)@.*|uses: ./\1|' "$caller" >"$scratch/.github/workflows/caller.yml"
  grep -q "uses: ./$called" "$scratch/.github/workflows/caller.yml" || die "$caller does not call $called"
  (cd "$scratch" && actionlint) || die "$caller does not fit $called (above)"
  echo "actionlint: $caller calls $called with valid inputs"
done
