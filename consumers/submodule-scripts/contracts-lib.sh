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

# strip_ansi — stdin without terminal colour codes. Some Maven builds (Debian's 3.8) colour
# their output even in batch mode and into a pipe; logs and pull-request annotations are not
# terminals, and show the codes as garbage. ESC is spelled by bash, not sed, for BSD sed.
strip_ansi() { sed -e 's/'$'\033''\[[0-9;?]*[A-Za-z]//g'; }

# In GitHub Actions, warnings and errors also become annotations on the pull request: one
# workflow command each, so their line breaks are escaped as the runner expects.
annotate() {
  [[ "${GITHUB_ACTIONS:-}" == "true" ]] || return 0
  local message="${2//'%'/%25}"
  message="${message//$'\r'/%0D}"
  echo "::$1::${message//$'\n'/%0A}"
}
warn() {
  local message
  message="$(strip_ansi <<<"$*")"
  annotate warning "$message"
  printf 'warning: %s\n' "$message" >&2
}
die() {
  local message
  message="$(strip_ansi <<<"$*")"
  annotate error "$message"
  printf 'error: %s\n' "$message" >&2
  exit 1
}

# require_tools TOOL… — the npm-installed tools (buf above all) are there. Without them the
# shell's "command not found" (exit 127) would read as a failure of the contracts.
require_tools() {
  local tool missing=()
  for tool; do command -v "$tool" >/dev/null || missing+=("$tool"); done
  ((${#missing[@]} == 0)) || die "not installed here: ${missing[*]}. Run npm ci --ignore-scripts in $SERVICE_ROOT first: it installs the pinned tools of package-lock.json into node_modules/.bin, where every scripts/ command looks"
}

# maven WHAT ARG… — Maven with ARG…, quiet; on failure its messages, without colour codes,
# and an error naming WHAT it was fetching.
maven() {
  local what="$1"
  shift
  command -v "${MVN_CMD[0]}" >/dev/null \
    || die "Maven ('${MVN_CMD[0]}') is not installed here; it fetches $what. Install a JDK with Maven, or name another Maven in CONTRACTS_MVN"
  if ! "${MVN_CMD[@]}" -B -q -Dstyle.color=never "$@" >"$SCRATCH/maven.log" 2>&1; then
    strip_ansi <"$SCRATCH/maven.log" >&2
    die "could not fetch $what with ${MVN_CMD[*]} (above)"
  fi
  # Quiet Maven says nothing on success but what a build may print anyway (warnings).
  strip_ansi <"$SCRATCH/maven.log" | sed '/^[[:space:]]*$/d' >&2
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
  [[ -n "$top" && "$top" == "$(cd "$CONTRACTS_DIR" && pwd -P)" ]] && return
  local url
  url="$(git config -f .gitmodules --get "submodule.$CONTRACTS_DIR.url" 2>/dev/null || true)"
  if is_local_url "$url" && [[ "$(git config --get protocol.file.allow || true)" != always ]]; then
    die "the contracts submodule at '$CONTRACTS_DIR' is not checked out. Its repository is a local path ($url), and git (2.38.1 and later) clones no submodule from a local path unless told to: run git -c protocol.file.allow=always submodule update --init"
  fi
  die "the contracts submodule at '$CONTRACTS_DIR' is not checked out (a clone made without --recurse-submodules?): run git submodule update --init"
}

# is_local_url URL — the URL is a path on this machine (file://, or no host): git reads it
# with its file transport, which it refuses for submodules by default since 2.38.1.
is_local_url() {
  [[ "$1" == file://* ]] || [[ -n "$1" && "$1" != *://* && ! "$1" =~ ^[^/]+: ]]
}

# branch_note DIR — " on branch NAME" when the repository at DIR has a branch checked out.
branch_note() {
  local branch
  branch="$(git -C "$1" symbolic-ref -q --short HEAD || true)"
  [[ -z "$branch" ]] || echo " on branch '$branch'"
}

# submodule_problems — what is wrong with the submodule for a bump: the pin staged, the
# submodule checked out away from the pin, or files of its own changed. `git stash` helps with
# none of them (it does not stash a submodule's checkout), so each says what does.
submodule_problems() {
  local pin staged checked_out edits
  pin="$(pin_at HEAD)"
  staged="$(git ls-files -s -- "$CONTRACTS_DIR" | awk '$1 == "160000" { print $2 }')"
  if [[ -n "$pin" && -n "$staged" && "$staged" != "$pin" ]]; then
    echo "- the contracts pin is staged at $(describe_pin "$staged") (${staged:0:12}), HEAD pins $(describe_pin "$pin") (${pin:0:12}): unstage it with git reset -q -- $CONTRACTS_DIR"
  fi
  checked_out="$(git -C "$CONTRACTS_DIR" rev-parse HEAD)"
  if [[ -n "$pin" && "$checked_out" != "$pin" ]]; then
    echo "- the contracts submodule is checked out at $(describe_pin "$checked_out") (${checked_out:0:12})$(branch_note "$CONTRACTS_DIR"), but HEAD pins $(describe_pin "$pin") (${pin:0:12}). Put it back with git submodule update -- $CONTRACTS_DIR; to move the pin there, run the bump with that tag, branch or commit afterwards"
  fi
  edits="$(git -C "$CONTRACTS_DIR" status --porcelain)"
  if [[ -n "$edits" ]]; then
    echo "- '$CONTRACTS_DIR' has changes of its own; the contracts change in the contracts repository, not here. Keep them aside with git -C $CONTRACTS_DIR stash -u:"
    sed 's/^/    /' <<<"$edits"
  fi
}

# changes_advice PORCELAIN — `git status --porcelain` lines, grouped with what to do about
# them: changed or staged files are committed or stashed; untracked files only ever matter in
# GEN_DIR, which holds generated code alone and which generating empties first, and
# `git stash` would not take them anyway: they are moved out.
changes_advice() {
  local tracked untracked
  tracked="$(grep -v '^??' <<<"$1" || true)"
  untracked="$(grep '^??' <<<"$1" || true)"
  if [[ -n "$tracked" ]]; then
    echo "- changed or staged files: commit or stash them (git stash):"
    sed 's/^/    /' <<<"$tracked"
  fi
  if [[ -n "$untracked" ]]; then
    echo "- untracked files in $GEN_DIR, which holds generated code only and is emptied when it is generated: move them out of it:"
    sed 's/^/    /' <<<"$untracked"
  fi
}

# newest_tags — the contracts' newest release tags, for a message about a ref that is none.
newest_tags() {
  git -C "$CONTRACTS_DIR" tag --list 'v*' --sort=-v:refname | head -n 5 | paste -sd, - | sed 's/,/, /g'
}

# trailer COMMIT KEY — the value of a trailer of COMMIT's message (empty if none).
trailer() {
  git log -1 --format="%(trailers:key=$2,valueonly)" "$1" | sed '/^[[:space:]]*$/d'
}

# made_by_bump COMMIT — COMMIT moved the pin and was made by bump-contracts: its Contracts-Bump
# trailer names exactly the pins it moved between.
made_by_bump() {
  [[ "$(trailer "$1" "$BUMP_TRAILER")" == "$(pin_at "$1~1")..$(pin_at "$1")" ]]
}

# pin_movers RANGE — the commits of RANGE (or of a revision's history) that changed the pin,
# newest first.
pin_movers() {
  local commit
  for commit in $(git rev-list "$1" -- "$CONTRACTS_DIR"); do
    if [[ "$(pin_at "$commit")" != "$(pin_at "$commit~1")" ]]; then echo "$commit"; fi
  done
}

# hand_moved RANGE — the newest commit of RANGE that moved the pin without bump-contracts
# (empty if none).
hand_moved() {
  local commit
  for commit in $(pin_movers "$1"); do
    if [[ -n "$(pin_at "$commit~1")" ]] && ! made_by_bump "$commit"; then echo "$commit"; return; fi
  done
}

# override_reasons BASE — the override reasons of the commits in BASE..HEAD that moved the pin
# and were written by bump-contracts. A reason typed by hand into another commit is not one (a
# warning says so).
override_reasons() {
  local commit reason
  for commit in $(pin_movers "$1..HEAD"); do
    reason="$(trailer "$commit" "$OVERRIDE_TRAILER")"
    [[ -n "$reason" ]] || continue
    if ! made_by_bump "$commit"; then
      warn "commit ${commit:0:12} gives a $OVERRIDE_TRAILER reason but was not made by scripts/bump-contracts (no $BUMP_TRAILER trailer naming the pins it moved); its reason does not count"
      continue
    fi
    echo "$reason"
  done
}

# undo_hand_move COMMIT REF — how to put back the pin COMMIT moved without bump-contracts
# (with the generated code, and nothing else of that commit), then move it with the command,
# which records the breaking check and a reason: the one way such a move passes the
# pull-request check.
undo_hand_move() {
  echo "put the pin back as it was before ${1:0:12}, then bump with the command:
  git restore --source=${1:0:12}~1 --staged --worktree -- $CONTRACTS_DIR $GEN_DIR
  git commit -m \"Put the contracts pin back to $(describe_pin "$(pin_at "$1~1")")\"
  git submodule update -- $CONTRACTS_DIR
  scripts/bump-contracts $2 --allow-breaking \"REASON\""
}

# fetch_validate_proto — buf/validate/validate.proto into .contracts-deps/proto, once per
# PROTOVALIDATE_VERSION. Only that file is unpacked from the jar; nothing else is kept.
fetch_validate_proto() {
  local stamp="$DEPS_DIR/proto.version"
  [[ -f "$stamp" && "$(cat "$stamp")" == "$PROTOVALIDATE_VERSION" ]] && return
  echo "fetching buf/validate/validate.proto from build.buf:protovalidate:$PROTOVALIDATE_VERSION" >&2
  rm -rf "$DEPS_DIR/proto"
  maven "build.buf:protovalidate:$PROTOVALIDATE_VERSION" "$DEPENDENCY_PLUGIN:unpack" \
    -Dartifact="build.buf:protovalidate:$PROTOVALIDATE_VERSION:jar" \
    -Dmdep.unpack.includes=buf/validate/validate.proto \
    -DoutputDirectory="$DEPS_DIR/proto" -DmarkersDirectory="$SCRATCH/markers"
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
  maven "$1" "$DEPENDENCY_PLUGIN:copy" \
    -Dartifact="$1:exe:$os-$arch" -Dmdep.stripVersion=true -DoutputDirectory="$SCRATCH/exe"
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
  require_tools buf
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
