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
copy="$(mktemp -d)" && trap 'rm -rf "$copy"' EXIT
for rev in "$@"; do
  sha="$(git rev-parse -q --verify "$rev^{commit}")" || die "no commit $rev here"
  image="$cache/$sha.binpb"
  if [[ ! -s "$image" ]]; then
    rm -rf "${copy:?}"/* && git archive "$sha" buf.yaml proto | tar -x -C "$copy"
    contracts_workspace "$copy"
    # Written aside and moved in whole: two runs (or two tags of one commit) may compile it at once.
    buf build "$copy/proto" -o "$image.$$.part" >&2 || die "$rev does not compile with this buf"
    mv "$image.$$.part" "$image"
  fi
  echo "$image"
done
