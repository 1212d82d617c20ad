#!/usr/bin/env bash
# build.sh — the Python driver: the SDK wheel built the normal way (scripts/sdk-python.sh),
# installed as a package with requirements.txt into .tmp/compat/python-venv. The venv is
# rebuilt only when requirements.txt or the wheel's contents change (a stamp holds their
# hash), so a second run only rebuilds the wheel and compares. run.sh runs the driver.
source "$(dirname "$0")/../../../scripts/lib.sh"
here="$ROOT/compatibility-tests/clients/python"
env="$TOOLS/compat/python-venv"
stamp="$env/.compat-stamp"

# requirements.txt must carry versions.env's pins, or the SDK (which requires them) would
# be installed against something else.
for pin in "grpcio==$GRPCIO_VERSION" "protobuf==$PROTOBUF_PYTHON_VERSION"; do
  grep -qx "$pin" "$here/requirements.txt" || die "requirements.txt must pin $pin (versions.env)"
done

"$ROOT/scripts/sdk-python.sh" build >&2
wheel="$(ls "$ROOT"/dist/python/acme_contracts-"$SDK_VERSION"-*.whl | head -n 1)"

# Hash the wheel by its entries' names and CRCs, not its bytes: setuptools stamps the
# current time into the zip, so identical code would otherwise look changed on every build.
hash="$(
  {
    sha256sum "$here/requirements.txt"
    python3 -c 'import sys, zipfile
for i in sorted(zipfile.ZipFile(sys.argv[1]).infolist(), key=lambda i: i.filename):
    print(i.filename, i.CRC)' "$wheel"
  } | sha256sum | cut -d' ' -f1
)"
if [[ -f "$stamp" && "$(cat "$stamp")" == "$hash" ]]; then
  log "python driver: venv up to date ($env)"
  exit 0
fi

log "python driver: creating $env"
rm -rf "$env"
python3 -m venv "$env"
# --no-deps: requirements.txt names every package, so pip resolves nothing by itself.
"$env/bin/pip" install -q --disable-pip-version-check --no-deps -r "$here/requirements.txt"
"$env/bin/pip" install -q --disable-pip-version-check --no-deps "$wheel"
"$env/bin/pip" check --disable-pip-version-check >&2
echo "$hash" >"$stamp"
log "python driver: ready"
