#!/usr/bin/env bash
# gate/release-image.sh TAG — prints the path of TAG's compiled contracts (a buf image with its
# imports: a FileDescriptorSet), compiling them on first use. Cached by commit under
# .tmp/cache/release-images/, so each release is compiled once: the check against every release
# (check-releases.sh) and the harness's released clients (compatibility-tests/released/) read it.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
tag="${1:?usage: release-image.sh TAG}"
sha="$(git rev-parse -q --verify "$tag^{commit}")" || die "no release tag $tag here"
cache="$TOOLS/cache/release-images" && mkdir -p "$cache"
image="$cache/$sha.binpb"
if [[ ! -s "$image" ]]; then
  copy="$(mktemp -d)" && trap 'rm -rf "$copy"' EXIT
  git archive "$sha" buf.yaml proto | tar -x -C "$copy"
  contracts_workspace "$copy"
  # Written aside and moved in whole: two runs (or two tags of one commit) may compile it at once.
  buf build "$copy/proto" -o "$image.$$.part" >&2 || die "release $tag does not compile with this buf"
  mv "$image.$$.part" "$image"
fi
echo "$image"
