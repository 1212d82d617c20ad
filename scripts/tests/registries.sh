#!/usr/bin/env bash
# tests/registries.sh — `make test-registries` (part of `make test`): the SDK packages through
# real registries. Registries of its own (free ports, its own folder): the three packages
# published with release/publish.sh; published again, every registry refuses to overwrite and
# nothing changes; a wrong password is refused; then each package is installed back by
# version with its ecosystem's own tool into a project outside the repository and used.
source "$(dirname "$0")/../lib.sh"
export REGISTRIES_DIR="$TOOLS/registries-test"
export_free_ports NPM_REGISTRY_PORT PYPI_REGISTRY_PORT MAVEN_REGISTRY_PORT
rm -rf "$REGISTRIES_DIR"
work="$(mktemp -d)"
trap '"$ROOT/scripts/release/registries.sh" down >/dev/null; rm -rf "$REGISTRIES_DIR" "$work"' EXIT
v="$SDK_VERSION"

"$ROOT/scripts/sdk/all.sh" build >/dev/null
"$ROOT/scripts/release/registries.sh" up >/dev/null
registries="$("$ROOT/scripts/release/registries.sh" env)" || die "the registries did not start (above)"
eval "$registries"

log "publish $v to the three registries"
"$ROOT/scripts/release/publish.sh" | tee "$work/first.log"
grep -c " published to " "$work/first.log" | grep -qx 3 || die "not every package was published"
jar="$REGISTRIES_DIR/maven/repository/maven/com/acme/contracts/acme-contracts/$v/acme-contracts-$v.jar"
before="$(sha256sum "$jar")"

log "publish $v again: every registry refuses to overwrite it"
"$ROOT/scripts/release/publish.sh" >"$work/again.log" 2>&1 || { cat "$work/again.log"; die "publishing again failed"; }
for registry in npm PyPI Maven; do
  grep -q "^$registry: .* is already there" "$work/again.log" || { cat "$work/again.log"; die "$registry took $v again"; }
done
[[ "$(sha256sum "$jar")" == "$before" ]] || die "the Maven repository's jar changed"

log "a wrong password is refused"
code="$(curl -s -o /dev/null -w '%{http_code}' -u "$REGISTRY_USER:wrong" -T "$jar" "${MAVEN_REGISTRY_URL}com/acme/other/x.jar")"
[[ "$code" == 401 ]] || die "the Maven repository took a deploy with a wrong password ($code)"
code="$(curl -s -o /dev/null -w '%{http_code}' -u "$REGISTRY_USER:wrong" -F ":action=file_upload" -F "content=@$ROOT/dist/python/acme_contracts-$v-py3-none-any.whl;filename=other-9.9.9-py3-none-any.whl" "$PYPI_REGISTRY_URL")"
[[ "$code" == 401 || "$code" == 403 ]] || die "the PyPI index took an upload with a wrong password ($code)"

log "install $v from each registry, outside the repository, with each ecosystem's own tool"
mkdir -p "$work/npm" && (cd "$work/npm" && echo '{"name":"consumer","private":true,"type":"module"}' >package.json \
  && npm install "@acme/contracts@$v" --registry "$NPM_REGISTRY_URL" --no-audit --no-fund >/dev/null \
  && node -e 'import("@acme/contracts/acme/person/v1/person_pb").then(async (m) => {
       const { create, toBinary } = await import("@bufbuild/protobuf");
       const bytes = toBinary(m.PersonSchema, create(m.PersonSchema, { name: "polar penguin", age: 20 }));
       if (bytes.length !== 17) throw new Error(`encoded ${bytes.length} bytes`);
       console.log("npm:   @acme/contracts@" + process.argv[1] + " installed, a Person encodes to 17 bytes");
     })' "$v")
python3 -m venv "$work/pip"
"$work/pip/bin/pip" install -q --no-deps --index-url "$PYPI_INDEX_URL" "acme-contracts==$v"
"$work/pip/bin/pip" install -q "protobuf==$PROTOBUF_PYTHON_VERSION" "grpcio==$GRPCIO_VERSION"
"$work/pip/bin/python" -c '
import sys
from acme.person.v1 import person_pb2
size = len(person_pb2.Person(name="polar penguin", age=20).SerializeToString())
assert size == 17, size
print(f"PyPI:  acme-contracts {sys.argv[1]} installed, a Person encodes to 17 bytes")' "$v"
"${MVN[0]}" -B -q -Dmaven.repo.local="$work/m2" \
  "org.apache.maven.plugins:maven-dependency-plugin:$MAVEN_DEPENDENCY_PLUGIN_VERSION:get" \
  -Dartifact="com.acme.contracts:acme-contracts:$v" -Dtransitive=false -DremoteRepositories="acme::::$MAVEN_REGISTRY_URL"
fetched="$work/m2/com/acme/contracts/acme-contracts/$v/acme-contracts-$v.jar"
[[ "$(sha256sum <"$fetched")" == "$(sha256sum <"$ROOT/dist/java/acme-contracts-$v.jar")" ]] || die "Maven fetched another jar"
grep -q "acme-contracts-$v.jar>acme=" "$work/m2/com/acme/contracts/acme-contracts/$v/_remote.repositories" \
  || die "Maven did not fetch the jar from the acme repository"
echo "Maven: com.acme.contracts:acme-contracts:$v fetched from the repository, the jar published"

log "registries down: every server stops answering"
"$ROOT/scripts/release/registries.sh" down >/dev/null
for port in "$NPM_REGISTRY_PORT" "$PYPI_REGISTRY_PORT" "$MAVEN_REGISTRY_PORT"; do
  for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/" || continue 2; sleep 0.1; done
  die "port $port still answers after registries.sh down: a server was left running"
done
echo "registries down: npm, PyPI and Maven stopped answering"
