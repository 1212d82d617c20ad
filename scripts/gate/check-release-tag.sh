#!/usr/bin/env bash
# gate/check-release-tag.sh TAG — a release tag must be "v" + SDK_VERSION from versions.env, so
# the tag, the three SDK packages and their manifests always carry the same version.
source "$(dirname "$0")/../lib.sh"
tag="${1:?usage: check-release-tag.sh TAG}"
[[ -n "${SDK_VERSION:-}" ]] || die "SDK_VERSION is not set in versions.env"
if [[ "$tag" != "v$SDK_VERSION" ]]; then
  die "tag '$tag' does not match SDK_VERSION=$SDK_VERSION in versions.env: tag 'v$SDK_VERSION', or bump SDK_VERSION, run 'make gen' and commit"
fi
echo "tag $tag matches SDK_VERSION=$SDK_VERSION"
