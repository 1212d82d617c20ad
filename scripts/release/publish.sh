#!/usr/bin/env bash
# release/publish.sh — publishes the three SDK packages dist/ holds (make sdk builds them) to
# the registries the environment names, with the ecosystem's own publishing protocol, so the
# same command serves `make registries`' local servers and any hosted registry:
#   NPM_REGISTRY_URL    npm publish; NPM_TOKEN, or REGISTRY_USER + REGISTRY_PASSWORD
#   PYPI_REGISTRY_URL   the upload API every PyPI-compatible index takes (what twine speaks),
#                       REGISTRY_USER + REGISTRY_PASSWORD (a token: user __token__)
#   MAVEN_REGISTRY_URL  mvn deploy:deploy-file (jar, pom, sources), REGISTRY_USER + REGISTRY_PASSWORD
# A version a registry already holds is refused by it (nothing is overwritten); this says which
# and publishes the rest, so a publish that failed half-way is resumed by running it again. It
# fails when a registry refuses for any other reason (down, wrong credentials).
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
: "${NPM_REGISTRY_URL:?}" "${PYPI_REGISTRY_URL:?}" "${MAVEN_REGISTRY_URL:?}" "${REGISTRY_USER:?}" "${REGISTRY_PASSWORD:?}"
v="$SDK_VERSION"
tgz="dist/ts/acme-contracts-$v.tgz" wheel="dist/python/acme_contracts-$v-py3-none-any.whl"
jar="dist/java/acme-contracts-$v.jar" sources="dist/java/acme-contracts-$v-sources.jar"
for f in "$tgz" "$wheel" "$jar"; do [[ -f "$f" ]] || die "$f is missing: run make sdk first"; done
work="$(mktemp -d)" && trap 'rm -rf "$work"' EXIT
failed=()

# npm: a throwaway user config carries the credentials for this registry only.
host="${NPM_REGISTRY_URL#*:}" && host="${host%/}/"
if [[ -n "${NPM_TOKEN:-}" ]]; then
  echo "$host:_authToken=$NPM_TOKEN" >"$work/npmrc"
else
  echo "$host:_auth=$(printf '%s:%s' "$REGISTRY_USER" "$REGISTRY_PASSWORD" | base64 -w0)" >"$work/npmrc"
fi
if npm publish "$tgz" --registry "$NPM_REGISTRY_URL" --userconfig "$work/npmrc" >"$work/npm.log" 2>&1; then
  echo "npm:   @acme/contracts@$v published to $NPM_REGISTRY_URL"
elif grep -qiE "cannot publish over|EPUBLISHCONFLICT|409|already (exists|present)" "$work/npm.log"; then
  echo "npm:   @acme/contracts@$v is already there: not published again" >&2
else
  cat "$work/npm.log" >&2; echo "npm:   publishing failed (above)" >&2; failed+=(npm)
fi

# PyPI: the legacy upload API, as twine uses it.
code="$(curl -s -o "$work/pypi.log" -w '%{http_code}' -u "$REGISTRY_USER:$REGISTRY_PASSWORD" \
  -F ":action=file_upload" -F "protocol_version=1" -F "name=acme-contracts" -F "version=$v" \
  -F "filetype=bdist_wheel" -F "pyversion=py3" -F "metadata_version=2.1" \
  -F "sha256_digest=$(sha256sum "$wheel" | cut -d' ' -f1)" -F "content=@$wheel" "$PYPI_REGISTRY_URL")"
case "$code" in
  200 | 201) echo "PyPI:  acme-contracts $v published to $PYPI_REGISTRY_URL" ;;
  409) echo "PyPI:  acme-contracts $v is already there (HTTP $code): not published again" >&2 ;;
  *) cat "$work/pypi.log" >&2; echo "PyPI:  publishing failed (HTTP $code)" >&2; failed+=(pypi) ;;
esac

# Maven: deploy-file with the SDK's own pom; credentials in a throwaway settings file.
cat >"$work/settings.xml" <<XML
<settings><servers><server><id>acme-registry</id>
<username>\${env.REGISTRY_USER}</username><password>\${env.REGISTRY_PASSWORD}</password>
</server></servers></settings>
XML
extra=()
[[ -f "$sources" ]] && extra=(-Dsources="$sources")
if "${MVN[@]}" -q -s "$work/settings.xml" \
  "org.apache.maven.plugins:maven-deploy-plugin:$MAVEN_DEPLOY_PLUGIN_VERSION:deploy-file" \
  -Dfile="$jar" -DpomFile=gen/java/pom.xml "${extra[@]}" -DrepositoryId=acme-registry -Durl="$MAVEN_REGISTRY_URL" \
  >"$work/maven.log" 2>&1; then
  echo "Maven: com.acme.contracts:acme-contracts:$v published to $MAVEN_REGISTRY_URL"
elif grep -q "409" "$work/maven.log"; then
  echo "Maven: com.acme.contracts:acme-contracts:$v is already there (409): not published again" >&2
else
  tail -20 "$work/maven.log" >&2; echo "Maven: publishing failed (above)" >&2; failed+=(maven)
fi

((${#failed[@]} == 0)) || die "not published to: ${failed[*]}"
cat <<TEXT
Install $v:
  npm install @acme/contracts@$v --registry $NPM_REGISTRY_URL
  pip install acme-contracts==$v --extra-index-url ${PYPI_INDEX_URL:-${PYPI_REGISTRY_URL%/}/simple/}
  Maven: com.acme.contracts:acme-contracts:$v from the repository $MAVEN_REGISTRY_URL
TEXT
