#!/usr/bin/env bash
# released/build.sh VERSION… — the three clients' executors built on released SDK versions, each
# installed from the registries the environment names (NPM_REGISTRY_URL, PYPI_INDEX_URL,
# MAVEN_REGISTRY_URL: `scripts/release/registries.sh env`) with its ecosystem's own tool:
#   java    acme-contracts-V.jar fetched by mvn, the executor's sources compiled against it
#           (javac), today's third-party jars beside it;
#   ts      the executor's sources in a project of their own with @acme/contracts@V installed
#           by npm, compiled by tsc against its types;
#   python  a virtualenv with acme-contracts==V installed by pip.
# Each lands in .tmp/compat/released/<client>-<V>/ with a run.sh, and a line in
# .tmp/compat/released/clients.tsv (client, version, folder, the release's descriptor set from
# gate/image-at.sh): the list the harness reads from COMPAT_RELEASED, to run every case
# with a row per client × version, speaking that release's schema.
source "$(dirname "$0")/../../scripts/lib.sh"
cd "$ROOT"
(($#)) || die "usage: released/build.sh VERSION…"
for var in NPM_REGISTRY_URL PYPI_INDEX_URL MAVEN_REGISTRY_URL; do
  [[ -n "${!var:-}" ]] || die "$var is not set: start the registries first (eval \"\$(scripts/release/registries.sh env)\")"
done
clients="$ROOT/compatibility-tests/clients"
out="$TOOLS/compat/released"
mkdir -p "$out" && : >"$out/clients.tsv"
# Today's builds provide what does not depend on the SDK: the Java client's third-party jars,
# the TypeScript client's generated google.rpc and executor code, the Python executor protocol.
# Only those pieces are built: the Java client in the reactor on the SDK sdk/java.sh installed
# (a no-op when it is installed from these inputs already), not a build of the SDK of its own;
# the TypeScript client's generated code without the client's compile; the executor protocol
# without today's Python client's virtualenv.
if [[ ! -d "$clients/java/target/lib" ]]; then
  "$ROOT/scripts/sdk/java.sh" build >/dev/null
  "${MVN[@]}" -q -pl compatibility-tests/executor,compatibility-tests/clients/java package -DskipTests
fi
[[ -d "$clients/ts/src/gen" ]] || "$clients/ts/build.sh" generated
[[ -d "$TOOLS/compat/python-executor" ]] || "$ROOT/compatibility-tests/executor/generate.sh" python "$TOOLS/compat/python-executor"
# Maven's local repository for these builds keeps third-party artifacts between runs, never an
# acme-contracts: each comes from the registry (mvn_from_registry checks it).
rm -rf "$out/m2/com/acme"

# A client of a version is built again only when what it is built from changed: the release's
# package as the registry serves it (its hash there), and the client's sources, pins and this
# script. A release checks the clients of the last three releases, so a run of several
# releases (the release suite's) builds each version's clients once, not once per release.
sources="$(inputs_hash compatibility-tests/clients compatibility-tests/executor compatibility-tests/released consumers/outside/maven pom.xml package-lock.json versions.env scripts/lib.sh)-$(ls "$clients/java/target/lib" | sha256sum | cut -c1-16)"
# served URL — the sha256 of what the registry serves at URL, nothing when it serves nothing.
served() { local f; f="$(mktemp)"; curl -sf -o "$f" "$1" && sha256sum <"$f" | cut -c1-64; rm -f "$f"; }
key_java() { local h; h="$(served "${MAVEN_REGISTRY_URL}com/acme/contracts/acme-contracts/$1/acme-contracts-$1.jar")"; [[ -z "$h" ]] || echo "$sources java $1 $h"; }
key_ts() {
  local h; h="$(curl -sf "${NPM_REGISTRY_URL}@acme%2fcontracts" | python3 -c 'import json, sys
print(json.load(sys.stdin)["versions"][sys.argv[1]]["dist"]["integrity"])' "$1" 2>/dev/null || true)"
  [[ -z "$h" ]] || echo "$sources ts $1 $h"
}
key_python() {
  local h; h="$(curl -sf "${PYPI_INDEX_URL}acme-contracts/" | grep -o "acme_contracts-$1-[^\"#]*#sha256=[0-9a-f]*" | head -n 1 || true)"
  [[ -z "$h" ]] || echo "$sources python $1 $h"
}
# built DIR KEY — DIR holds the client built from KEY (a key of nothing never matches).
built() { [[ -n "$2" && -f "$1/.built-from" && "$(cat "$1/.built-from")" == "$2" ]]; }

# build_CLIENT VERSION DIR — the client on that release, built into the empty folder DIR.
build_java() {
  local v="$1" dir="$2"
  mkdir -p "$dir/lib"
  # The outside Maven project's POM (consumers/outside/) is how a project outside gets the SDK.
  mvn_from_registry "$out/m2" "$v" -f "$ROOT/consumers/outside/maven/pom.xml" \
    "org.apache.maven.plugins:maven-dependency-plugin:$MAVEN_DEPENDENCY_PLUGIN_VERSION:copy-dependencies" \
    -DincludeArtifactIds=acme-contracts -DoutputDirectory="$dir/lib"
  for jar in "$clients/java/target/lib/"*.jar; do
    [[ "$(basename "$jar")" == acme-contracts-* ]] || ln -s "$jar" "$dir/lib/"
  done
  javac "${SHORT_JVM[@]/#/-J}" --release "$JAVA_VERSION" -nowarn -d "$dir/classes" -cp "$dir/lib/*" $(find "$clients/java/src/main/java" -name '*.java')
  cat >"$dir/run.sh" <<SH
#!/usr/bin/env bash
exec java ${SHORT_JVM[*]} -cp "$dir/classes:$dir/lib/*" com.acme.compat.Main "\$@"
SH
}

build_ts() {
  local v="$1" dir="$2"
  cp -r "$clients/ts/src" "$clients/ts/tsconfig.json" "$dir/"
  python3 - "$clients/ts/package.json" "$v" >"$dir/package.json" <<'PY'
import json, sys
manifest = json.load(open(sys.argv[1]))
manifest["name"] = "compat-client-ts-released"
manifest["dependencies"]["@acme/contracts"] = sys.argv[2]
print(json.dumps(manifest, indent=2))
PY
  (cd "$dir" && npm install -q --no-audit --no-fund --registry "$NPM_REGISTRY_URL" >/dev/null && node_modules/.bin/tsc -p tsconfig.json)
  [[ "$(node -p "require('$dir/node_modules/@acme/contracts/package.json').version")" == "$v" ]] || die "npm installed another @acme/contracts"
  cat >"$dir/run.sh" <<SH
#!/usr/bin/env bash
exec "$NODE_HOME/bin/node" "$dir/dist/main.js" "\$@"
SH
}

build_python() {
  local v="$1" dir="$2"
  # A virtualenv without pip of its own (creating one with pip takes seconds), filled by the
  # tools' pip (--python), as a user's pip would fill it.
  python3 -m venv --without-pip "$dir/venv"
  "$VENV/bin/pip" --python "$dir/venv/bin/python" install -q --disable-pip-version-check --no-deps -r "$clients/python/requirements.txt"
  "$VENV/bin/pip" --python "$dir/venv/bin/python" install -q --disable-pip-version-check --no-deps --index-url "$PYPI_INDEX_URL" "acme-contracts==$v"
  cat >"$dir/run.sh" <<SH
#!/usr/bin/env bash
export PYTHONPATH="$clients/python:$TOOLS/compat/python-executor"
exec "$dir/venv/bin/python" -m compat_client "\$@"
SH
}

for v in "$@"; do
  descriptors="$("$ROOT/scripts/gate/image-at.sh" "v$v")"
  for client in java ts python; do
    dir="$out/$client-$v" key="$("key_$client" "$v")"
    if built "$dir" "$key"; then
      log "$client client on acme-contracts $v: built from the same package already"
    else
      log "$client client on acme-contracts $v"
      rm -rf "$dir" && mkdir -p "$dir"
      "build_$client" "$v" "$dir"
      chmod +x "$dir/run.sh"
      echo "$key" >"$dir/.built-from"
    fi
    printf '%s\t%s\t%s\t%s\n' "$client" "$v" "$dir" "$descriptors" >>"$out/clients.tsv"
  done
done
echo "$out/clients.tsv"
