#!/usr/bin/env bash
# tests/gate-unit.sh — `make test-gate` (part of make test): the gate's own tests (gate/, Go),
# vet and format first. They compile schemas in memory and run in seconds; the whole path
# through git and buf is the schema-change suite's (governance-tests/schema-changes).
source "$(dirname "$0")/../lib.sh"
cd "$ROOT/gate"
unformatted="$(gofmt -l .)"
[[ -z "$unformatted" ]] || die "gofmt would change: $unformatted"
go vet ./...
go test -count=1 "$@" ./...
