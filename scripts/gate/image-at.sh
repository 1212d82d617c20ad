#!/usr/bin/env bash
# gate/image-at.sh REV… — prints, one per line, the path of the contracts' image at each commit
# REV (a buf image with its imports: a FileDescriptorSet), compiling it on first use. Cached by
# commit under .tmp/cache/images/ (IMAGE_CACHE=DIR chooses another), so each commit is compiled
# once: the breaking check's merge base, the check against every release (check-releases.sh) and
# the harness's released clients (compatibility-tests/released/) read it.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
(($#)) || die "usage: image-at.sh REV…"
cache="${IMAGE_CACHE:-$TOOLS/cache/images}" && mkdir -p "$cache"

# compile SHA IMAGE — the contracts at SHA, written aside and moved in whole: two runs (or two
# tags of one commit) may compile one image at once.
compile() {
  local copy rc=0
  copy="$(mktemp -d)"
  git archive "$1" buf.yaml proto | tar -x -C "$copy"
  contracts_workspace "$copy"
  buf build "$copy/proto" -o "$2.$BASHPID.part" >&2 && mv "$2.$BASHPID.part" "$2" || rc=$?
  rm -rf "$copy"
  return "$rc"
}

# The missing images are compiled side by side, one per core.
images=() pids=() failed=()
declare -A compiling=()
for rev in "$@"; do
  sha="$(git rev-parse -q --verify "$rev^{commit}")" || die "no commit $rev here"
  image="$cache/$sha.binpb"
  images+=("$image")
  # An image used now is touched: what CI forgets is what went unused (pull-request.yml).
  [[ -s "$image" ]] && touch "$image" && continue
  [[ -n "${compiling[$sha]:-}" ]] && continue
  compile "$sha" "$image" &
  compiling[$sha]=$! pids+=("$!:$rev")
  if ((${#pids[@]} >= $(nproc))); then
    wait "${pids[0]%%:*}" || failed+=("${pids[0]#*:}")
    pids=("${pids[@]:1}")
  fi
done
for pid in "${pids[@]}"; do wait "${pid%%:*}" || failed+=("${pid#*:}"); done
((${#failed[@]} == 0)) || die "these do not compile with this buf: ${failed[*]}"
printf '%s\n' "${images[@]}"
