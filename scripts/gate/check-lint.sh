#!/usr/bin/env bash
# gate/check-lint.sh — buf lint (STANDARD + COMMENTS, see buf.yaml). The msvs format puts each
# rule's name (e.g. COMMENT_FIELD) on the line, so a failure says which rule to read up on.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
buf lint --error-format=msvs
