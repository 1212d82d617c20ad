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
[[ -d "$clients/java/target/lib" ]] || "$clients/java/build.sh"
[[ -d "$clients/ts/src/gen" ]] || "$clients/ts/build.sh"
[[ -d "$TOOLS/compat/python-executor" ]] || "$clients/python/build.sh"
# Maven's local repository for these builds keeps third-party artifacts between runs, never an
# acme-contracts: each comes from the registry (mvn_from_registry checks it).
rm -rf "$out/m2/com/acme"

for v in "$@"; do
  descriptors="$("$ROOT/scripts/gate/image-at.sh" "v$v")"

  log "java client on acme-contracts $v"
  dir="$out/java-$v" && rm -rf "$dir" && mkdir -p "$dir/lib"
  # The outside Maven project's POM (consumers/outside/) is how a project outside gets the SDK.
  mvn_from_registry "$out/m2" "$v" -f "$ROOT/consumers/outside/maven/pom.xml" \
    "org.apache.maven.plugins:maven-dependency-plugin:$MAVEN_DEPENDENCY_PLUGIN_VERSION:copy-dependencies" \
    -DincludeArtifactIds=acme-contracts -DoutputDirectory="$dir/lib"
  for jar in "$clients/java/target/lib/"*.jar; do
    [[ "$(basename "$jar")" == acme-contracts-* ]] || ln -s "$jar" "$dir/lib/"
  done
  javac --release "$JAVA_VERSION" -nowarn -d "$dir/classes" -cp "$dir/lib/*" $(find "$clients/java/src/main/java" -name '*.java')
  cat >"$dir/run.sh" <<SH
#!/usr/bin/env bash
exec java -cp "$dir/classes:$dir/lib/*" com.acme.compat.Main "\$@"
SH

  log "ts client on @acme/contracts $v"
  dir="$out/ts-$v" && rm -rf "$dir" && mkdir -p "$dir"
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

  log "python client on acme-contracts $v"
  dir="$out/python-$v" && rm -rf "$dir" && python3 -m venv "$dir/venv"
  "$dir/venv/bin/pip" install -q --disable-pip-version-check --no-deps -r "$clients/python/requirements.txt"
  "$dir/venv/bin/pip" install -q --disable-pip-version-check --no-deps --index-url "$PYPI_INDEX_URL" "acme-contracts==$v"
  cat >"$dir/run.sh" <<SH
#!/usr/bin/env bash
export PYTHONPATH="$clients/python:$TOOLS/compat/python-executor"
exec "$dir/venv/bin/python" -m compat_client "\$@"
SH

  chmod +x "$out"/*-"$v"/run.sh
  for client in java ts python; do
    printf '%s\t%s\t%s\t%s\n' "$client" "$v" "$out/$client-$v" "$descriptors" >>"$out/clients.tsv"
  done
done
echo "$out/clients.tsv"
