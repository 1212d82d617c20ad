# contracts-lib.sh — sourced by the scripts/contracts-* commands and bump-contracts: strict
# mode, this service's contracts settings (contracts.env), and the steps they share.
set -euo pipefail

SERVICE_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$SERVICE_ROOT"

# Settings come from contracts.env unless the environment already chose them.
while IFS='=' read -r key value; do
  [[ "$key" =~ ^[A-Z_]+$ ]] || continue
  [[ -n "${!key:-}" ]] || printf -v "$key" '%s' "$value"
done <contracts.env
DEPS_DIR="$SERVICE_ROOT/.contracts-deps"
OVERRIDE_TRAILER="Contracts-Breaking-Override"
# Written by bump-contracts into every bump commit: OLD..NEW, the pins it moved between.
BUMP_TRAILER="Contracts-Bump"

export PATH="$SERVICE_ROOT/node_modules/.bin:$PATH"
# The machine's Maven by default; CI or a test may name another, with its options
# (CONTRACTS_MVN="mvn -o"). Not MVN: build scripts often hold their own Maven in that name.
read -ra MVN_CMD <<<"${CONTRACTS_MVN:-mvn}"

# In GitHub Actions, warnings and errors also become annotations on the pull request.
warn() {
  if [[ "${GITHUB_ACTIONS:-}" == "true" ]]; then echo "::warning::$*"; fi
  printf 'warning: %s\n' "$*" >&2
}
die() {
  if [[ "${GITHUB_ACTIONS:-}" == "true" ]]; then echo "::error::$*"; fi
  printf 'error: %s\n' "$*" >&2
  exit 1
}

# A scratch folder for this run, removed on exit.
SCRATCH="$(mktemp -d)"
trap 'rm -rf "$SCRATCH"' EXIT

# require_submodule — the submodule is there and checked out. In a clone made without
# --recurse-submodules its folder is empty, and git run inside it finds the service's own
# repository instead: only a folder that is itself a repository's top counts.
require_submodule() {
  local top=""
  [[ -d "$CONTRACTS_DIR" ]] && top="$(git -C "$CONTRACTS_DIR" rev-parse --show-toplevel 2>/dev/null || true)"
  [[ -n "$top" && "$top" == "$(cd "$CONTRACTS_DIR" && pwd -P)" ]] \
    || die "the contracts submodule at '$CONTRACTS_DIR' is not checked out (a clone made without --recurse-submodules?): run git submodule update --init"
}

# newest_tags — the contracts' newest release tags, for a message about a ref that is none.
newest_tags() {
  git -C "$CONTRACTS_DIR" tag --list 'v*' --sort=-v:refname | head -n 5 | paste -sd, - | sed 's/,/, /g'
}

# override_reasons BASE — the override reasons of the commits in BASE..HEAD that moved the pin
# and were written by bump-contracts: their Contracts-Bump trailer names exactly the pins the
# commit moved between. A reason typed by hand into another commit is not one (a warning says so).
override_reasons() {
  local commit reason bump
  for commit in $(git rev-list "$1..HEAD" -- "$CONTRACTS_DIR"); do
    reason="$(git log -1 --format="%(trailers:key=$OVERRIDE_TRAILER,valueonly)" "$commit" | sed '/^[[:space:]]*$/d')"
    [[ -n "$reason" ]] || continue
    bump="$(git log -1 --format="%(trailers:key=$BUMP_TRAILER,valueonly)" "$commit" | sed '/^[[:space:]]*$/d')"
    if [[ "$bump" != "$(pin_at "$commit~1")..$(pin_at "$commit")" ]]; then
      warn "commit ${commit:0:12} gives a $OVERRIDE_TRAILER reason but was not made by scripts/bump-contracts (no $BUMP_TRAILER trailer naming the pins it moved); its reason does not count"
      continue
    fi
    echo "$reason"
  done
}

# fetch_validate_proto — buf/validate/validate.proto into .contracts-deps/proto, once per
# PROTOVALIDATE_VERSION. Only that file is unpacked from the jar; nothing else is kept.
fetch_validate_proto() {
  local stamp="$DEPS_DIR/proto.version"
  [[ -f "$stamp" && "$(cat "$stamp")" == "$PROTOVALIDATE_VERSION" ]] && return
  echo "fetching buf/validate/validate.proto from build.buf:protovalidate:$PROTOVALIDATE_VERSION" >&2
  rm -rf "$DEPS_DIR/proto"
  "${MVN_CMD[@]}" -B -q -Dstyle.color=never "$DEPENDENCY_PLUGIN:unpack" \
    -Dartifact="build.buf:protovalidate:$PROTOVALIDATE_VERSION:jar" \
    -Dmdep.unpack.includes=buf/validate/validate.proto \
    -DoutputDirectory="$DEPS_DIR/proto" -DmarkersDirectory="$SCRATCH/markers" >&2 \
    || die "could not fetch build.buf:protovalidate:$PROTOVALIDATE_VERSION with ${MVN_CMD[*]}"
  [[ -f "$DEPS_DIR/proto/buf/validate/validate.proto" ]] || die "the protovalidate jar has no buf/validate/validate.proto"
  echo "$PROTOVALIDATE_VERSION" >"$stamp"
}

# fetch_generator GROUP:ARTIFACT:VERSION NAME — a code generator published on Maven Central as
# an executable for this machine (protoc, protoc-gen-grpc-java), into .contracts-deps/bin/NAME,
# once per version.
fetch_generator() {
  local stamp="$DEPS_DIR/bin/$2.version" os arch
  [[ -x "$DEPS_DIR/bin/$2" && -f "$stamp" && "$(cat "$stamp")" == "$1" ]] && return
  case "$(uname -s)" in Linux) os=linux ;; Darwin) os=osx ;; *) die "no $2 build for $(uname -s)" ;; esac
  case "$(uname -m)" in x86_64 | amd64) arch=x86_64 ;; aarch64 | arm64) arch=aarch_64 ;; *) die "no $2 build for $(uname -m)" ;; esac
  echo "fetching $2 from $1 ($os-$arch)" >&2
  mkdir -p "$DEPS_DIR/bin"
  "${MVN_CMD[@]}" -B -q -Dstyle.color=never "$DEPENDENCY_PLUGIN:copy" \
    -Dartifact="$1:exe:$os-$arch" -Dmdep.stripVersion=true -DoutputDirectory="$SCRATCH/exe" >&2 \
    || die "could not fetch $1 with ${MVN_CMD[*]}"
  mv "$SCRATCH"/exe/* "$DEPS_DIR/bin/$2" && chmod +x "$DEPS_DIR/bin/$2"
  echo "$1" >"$stamp"
}

# describe_pin COMMIT — the contracts version a commit is: its release tag (v*), or the
# nearest one plus the distance ("v0.2.0-1-gabc1234"), or the short hash if none precedes it.
describe_pin() {
  git -C "$CONTRACTS_DIR" describe --tags --match 'v*' --always "$1"
}

# release_tag_of COMMIT — the v* tag pointing at COMMIT, empty if it is not a release.
release_tag_of() {
  git -C "$CONTRACTS_DIR" tag --points-at "$1" --list 'v*' | sort -V | tail -n 1
}

# export_pin COMMIT DEST — the contracts repository at COMMIT, as files, with validate.proto
# linked where the contracts' own buf.yaml expects it (their second module, .tmp/proto-deps),
# so buf judges it with the contracts' own modules and rules — what the contracts repository's
# own scripts do with every copy (contracts_workspace in its scripts/lib.sh).
export_pin() {
  mkdir -p "$2"
  git -C "$CONTRACTS_DIR" archive "$1" | tar -x -C "$2"
  [[ -f "$2/buf.yaml" && -d "$2/proto" ]] || die "contracts commit $1 has no buf.yaml and proto/: is $CONTRACTS_DIR the contracts repository?"
  rm -rf "$2/.tmp" && mkdir -p "$2/.tmp" # a committed .tmp is never followed
  ln -s "$DEPS_DIR/proto" "$2/.tmp/proto-deps"
}

# breaking_check OLD NEW — buf breaking of contracts commit NEW against OLD, with the FILE
# rules of NEW's buf.yaml. Prints buf's findings; returns 0 when safe, 1 when breaking.
# Both pins must compile first: buf breaking reports compile errors with the same exit code.
breaking_check() {
  local old="$SCRATCH/old-$1" new="$SCRATCH/new-$2"
  fetch_validate_proto
  export_pin "$1" "$old"
  export_pin "$2" "$new"
  local pin dir
  for pin in "$1:$old" "$2:$new"; do
    dir="${pin#*:}"
    (cd "$dir" && buf build -o /dev/null) || die "contracts at ${pin%%:*} do not compile"
  done
  local rc=0
  (cd "$new" && buf breaking --against "$old" --error-format=msvs) >"$SCRATCH/findings" 2>&1 || rc=$?
  BREAKING_FINDINGS="$(cat "$SCRATCH/findings")"
  case "$rc" in
    0) return 0 ;;
    100) printf '%s\n' "$BREAKING_FINDINGS"; return 1 ;;
    *) printf '%s\n' "$BREAKING_FINDINGS" >&2; die "buf breaking failed (exit $rc)" ;;
  esac
}

# pin_at REV — the contracts commit the service's commit REV pins (empty if none).
pin_at() {
  git rev-parse -q --verify "$1:$CONTRACTS_DIR" 2>/dev/null || true
}

# ensure_commits SHA... — fetch the submodule when it lacks one of them (a shallow clone).
ensure_commits() {
  local sha
  for sha in "$@"; do
    git -C "$CONTRACTS_DIR" cat-file -e "$sha^{commit}" 2>/dev/null && continue
    git -C "$CONTRACTS_DIR" fetch -q --tags origin || die "could not fetch the contracts repository"
    git -C "$CONTRACTS_DIR" cat-file -e "$sha^{commit}" 2>/dev/null || die "contracts commit $sha is not in the contracts repository"
  done
}

# report_pin COMMIT — warn when the pin is not a release, and say what the service is built against.
report_pin() {
  local tag
  tag="$(release_tag_of "$1")"
  if [[ -z "$tag" ]]; then
    warn "contracts pin ${1:0:12} is not a release tag (v*) but $(describe_pin "$1"): pin a tag before releasing this service"
  fi
  echo "contracts: this service is now built against $(describe_pin "$1") (commit $1)"
}
