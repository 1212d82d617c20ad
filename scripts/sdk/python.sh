#!/usr/bin/env bash
# sdk/python.sh [build|test] — the Python SDK: a wheel built from gen/python. `test` does
# what a user does — `pip install ./gen/python` into a fresh virtualenv — and runs the
# smoke tests against that installed copy (never against the source tree).
source "$(dirname "$0")/../lib.sh"
mode="${1:-build}"
cd "$ROOT"
mkdir -p dist/python
# setuptools reuses gen/python/build between builds and would ship modules deleted since;
# every build starts without it, and none is left behind.
trap 'rm -rf gen/python/build' EXIT
rm -rf gen/python/build
"$VENV/bin/pip" wheel -q --no-deps -w dist/python ./gen/python
echo "python sdk: dist/python/$(cd dist/python && ls -t acme_contracts-"$SDK_VERSION"-*.whl | head -n 1)"
[[ "$mode" == "test" ]] || exit 0

env="$TOOLS/sdk-python-venv"
rm -rf "$env"
python3 -m venv "$env"
rm -rf gen/python/build
"$env/bin/pip" install -q ./gen/python "protovalidate==$PROTOVALIDATE_PYTHON_VERSION" "pytest==$(sed -n 's/^pytest==//p' scripts/setup/requirements-tools.txt)"
(cd "$TOOLS" && "$env/bin/python" -m pytest -q -p no:cacheprovider "$ROOT/gen/python/tests")
