#!/usr/bin/env bash
# build.sh — the Python driver: the SDK wheel installed as a package, with requirements.txt,
# into .tmp/compat/python-venv (rebuilt only when either changes). run.sh runs the driver.
source "$(dirname "$0")/../../../scripts/lib.sh"
sdk_venv "$TOOLS/compat/python-venv" "$ROOT/compatibility-tests/clients/python/requirements.txt"
log "python driver: ready"
