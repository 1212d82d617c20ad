#!/usr/bin/env bash
# tests/outside-consumers.sh VERSION… — for each SDK version, the three projects of
# consumers/outside/ as a team outside the monorepo has them: copied to a folder of their own,
# acme-contracts installed by that version from the registries the environment names
# (NPM_REGISTRY_URL, PYPI_INDEX_URL, MAVEN_REGISTRY_URL: `scripts/release/registries.sh env`)
# with npm, pip and mvn, then run against the services the environment names (AUTH_TARGET,
# PERSON_TARGET, AUTH_ADMIN_USERNAME/PASSWORD: `compatibility-tests/topology.sh up`). Each
# must log in, register a person and read it back, with the classes of exactly that version,
# and see both services name their contracts version (SERVICES_CONTRACTS_VERSION, default
# versions.env's SDK_VERSION) in the acme-contracts-version header.
source "$(dirname "$0")/../lib.sh"
(($#)) || die "usage: outside-consumers.sh VERSION…"
for var in NPM_REGISTRY_URL PYPI_INDEX_URL MAVEN_REGISTRY_URL AUTH_TARGET PERSON_TARGET AUTH_ADMIN_USERNAME AUTH_ADMIN_PASSWORD; do
  [[ -n "${!var:-}" ]] || die "$var is not set: start the registries and the services first (see the header of $0)"
done
services="${SERVICES_CONTRACTS_VERSION:-$SDK_VERSION}"
work="$(mktemp -d)" && trap 'rm -rf "$work"' EXIT

# expect LINE WHAT — the consumer's line must say what it used and what the services run.
expect() {
  [[ "$1" == *"$2"* && "$1" == *"auth-node runs contracts $services, person-spring runs contracts $services" ]] \
    || die "expected '$2' and both services on contracts $services, got: $1"
  echo "$1"
}

for v in "$@"; do
  log "the outside consumers with acme-contracts $v"
  cp -r "$ROOT/consumers/outside/maven" "$work/maven-$v"
  mvn_from_registry "$work/m2" "$v" -f "$work/maven-$v/pom.xml" compile \
    "org.apache.maven.plugins:maven-dependency-plugin:$MAVEN_DEPENDENCY_PLUGIN_VERSION:build-classpath" \
    -Dmdep.outputFile="$work/maven-$v/classpath.txt"
  expect "$(java -cp "$work/maven-$v/target/classes:$(cat "$work/maven-$v/classpath.txt")" com.example.outside.Consumer)" \
    "maven: acme-contracts-$v.jar:"

  cp -r "$ROOT/consumers/outside/npm" "$work/npm-$v"
  (cd "$work/npm-$v" && npm install -q --no-audit --no-fund --save-exact --registry "$NPM_REGISTRY_URL" "@acme/contracts@$v" >/dev/null)
  expect "$(cd "$work/npm-$v" && node consumer.mjs)" "npm: @acme/contracts@$v:"

  # A virtualenv without pip of its own (creating one with pip takes seconds), filled by the
  # tools' pip (--python), as the project's own pip would fill it.
  python3 -m venv --without-pip "$work/pip-$v"
  "$VENV/bin/pip" --python "$work/pip-$v/bin/python" install -q --disable-pip-version-check --no-deps -r "$ROOT/consumers/outside/pip/requirements.txt"
  "$VENV/bin/pip" --python "$work/pip-$v/bin/python" install -q --disable-pip-version-check --no-deps --index-url "$PYPI_INDEX_URL" "acme-contracts==$v"
  expect "$("$work/pip-$v/bin/python" "$ROOT/consumers/outside/pip/consumer.py")" "pip: acme-contracts $v:"
done
