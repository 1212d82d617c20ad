#!/usr/bin/env bash
# sdk/all.sh [build|test] — the three SDK packages, Java, TypeScript and Python, in one go
# (`make sdk`, `make test-sdk`, the main job). make test runs them as separate suites.
source "$(dirname "$0")/../lib.sh"
for language in java ts python; do
  "$ROOT/scripts/sdk/$language.sh" "${1:-build}"
done
