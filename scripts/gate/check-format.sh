#!/usr/bin/env bash
# gate/check-format.sh — buf format: fails with the diff that `buf format -w proto` would apply.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
if ! buf format proto --diff --exit-code; then
  echo "buf format: the files above are not formatted; run 'make format' to fix them" >&2
  exit 1
fi
