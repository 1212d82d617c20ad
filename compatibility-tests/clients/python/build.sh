#!/usr/bin/env bash
# build.sh — the Python client: the SDK wheel installed as a package, with requirements.txt,
# into .tmp/compat/python-venv (rebuilt only when either changes), and the executor protocol
# generated into .tmp/compat/python-executor. run.sh runs the client.
source "$(dirname "$0")/../../../scripts/lib.sh"
sdk_venv "$TOOLS/compat/python-venv" "$ROOT/compatibility-tests/clients/python/requirements.txt"
"$ROOT/compatibility-tests/executor/generate.sh" python "$TOOLS/compat/python-executor"
log "python client: ready"
