#!/usr/bin/env bash
# run.sh — runs the Python client (after build.sh) with the arguments given; see
# compatibility-tests/README.md for the contract. Nothing is built here.
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
export PYTHONPATH="$here:$root/.tmp/compat/python-executor"
exec "$root/.tmp/compat/python-venv/bin/python" -m compat_client "$@"
