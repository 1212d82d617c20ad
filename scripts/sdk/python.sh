#!/usr/bin/env bash
# sdk/python.sh [build|test] — the Python SDK: a wheel built from gen/python. `test` does
# what a user does — `pip install ./gen/python` into a fresh virtualenv — and runs the
# smoke tests against that installed copy (never against the source tree).
source "$(dirname "$0")/../lib.sh"
mode="${1:-build}"
cd "$ROOT"
mkdir -p dist/python
# The retry policy's one definition goes into the package as data (acme_contracts.service_config).
cp gen/service-config.json gen/python/lib/acme_contracts/service-config.json
# setuptools reuses gen/python/build between builds and would ship modules deleted since;
# every build starts without it, and none is left behind.
trap 'rm -rf gen/python/build' EXIT
# A build asked for again with the same inputs, whose wheel is unchanged, is skipped, as
# sdk/java.sh's. `test` always builds.
inputs="$(inputs_hash gen/python gen/service-config.json versions.env scripts/sdk/python.sh scripts/setup/requirements-tools.txt)"
wheel="dist/python/acme_contracts-$SDK_VERSION-py3-none-any.whl" stamp="$TOOLS/sdk-built/python"
if [[ "$mode" != test && "$(cat "$stamp" 2>/dev/null)" == "$(built_stamp "$inputs" "$wheel")" ]]; then
  echo "python sdk: built from these inputs already (unchanged)"
else
  rm -f "$stamp"
  rm -rf gen/python/build
  "$VENV/bin/pip" wheel -q --no-deps -w dist/python ./gen/python
  mkdir -p "$(dirname "$stamp")" && built_stamp "$inputs" "$wheel" >"$stamp"
fi
echo "python sdk: dist/python/$(cd dist/python && ls -t acme_contracts-"$SDK_VERSION"-*.whl | head -n 1)"
[[ "$mode" == "test" ]] || exit 0

env="$TOOLS/sdk-python-venv"
rm -rf "$env"
python3 -m venv "$env"
rm -rf gen/python/build
"$env/bin/pip" install -q ./gen/python "protovalidate==$PROTOVALIDATE_PYTHON_VERSION" "pytest==$(sed -n 's/^pytest==//p' scripts/setup/requirements-tools.txt)"
(cd "$TOOLS" && "$env/bin/python" -m pytest -q -p no:cacheprovider "$ROOT/gen/python/tests")
