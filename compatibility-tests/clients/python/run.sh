#!/usr/bin/env bash
# run.sh — runs the Python driver (after build.sh) with the arguments given; see
# compatibility-tests/README.md for the contract. Nothing is built here.
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
export PYTHONPATH="$here"
exec "$root/.tmp/compat/python-venv/bin/python" -m compat_client "$@"
