#!/usr/bin/env bash
# release/release.sh [--allow-breaking "REASON"] [--no-publish] — `make release`: the next
# release, its version computed from the schema, never typed by hand.
#
# The gate decides (`gate release plan`): proto/ is compared with the latest release tag (v*)
# and every earlier one, with the same rules as make check (buf's FILE rules and the VALIDATE
# plugin's). A break of any release's clients — accepted by an exception or not; only a break
# an earlier release accepted is not new — makes a breaking release: the next major, or the next
# minor while the SDK is 0.x, refused without a written reason (a v1 package should not break:
# add v2 beside it); additions → the next minor; comments or options only → the next patch;
# nothing → no release. The gate writes its findings once, as .tmp/gate/findings.json; the
# CHANGELOG.md section (`gate release notes`: what was added, removed, and every break with the
# releases whose clients it breaks) and the tag's Accepted-Break lines (`gate release
# accepted-breaks`) are read from it. Then this writes the version into versions.env and every
# manifest, commits, tags vX.Y.Z, builds the three packages and publishes them to the
# registries the environment names (release/publish.sh; `eval "$(scripts/release/registries.sh
# env)"` for make registries'). With no release tag yet, the first release is SDK_VERSION as it
# stands.
#
# Run on a HEAD that is already a release tag, it only publishes what the registries lack: a
# publish that failed half-way is resumed, never tagged twice. A version that exists is never
# released again.
source "$(dirname "$0")/../lib.sh"
cd "$ROOT"
reason="" publish=true
while (($#)); do
  case "$1" in
    --allow-breaking) (($# >= 2)) || die "--allow-breaking needs a written reason"; reason="$2"; shift 2 ;;
    --no-publish) publish=false; shift ;;
    *) die "usage: make release [REASON=\"why the break is accepted\"] (release.sh [--allow-breaking REASON] [--no-publish])" ;;
  esac
done
reason="$(printf '%s' "$reason" | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//')"

# lap WHAT — the seconds since the last lap, as a "time:" line on standard error: where a
# release's minutes go (the release suite prints them).
lap_start=$SECONDS
lap() { echo "time: $1 $((SECONDS - lap_start)) s" >&2; lap_start=$SECONDS; }

dirty="$(git status --porcelain)"
[[ -z "$dirty" ]] || die "the working tree has changes; a release is made from a commit — commit or stash them:
$dirty"

publish_release() {
  "$ROOT/scripts/gate/gate" release tag-check "$1" >/dev/null
  # Maven reports its errors on stdout: keep the build's output, and show it when it fails.
  "$ROOT/scripts/sdk/all.sh" build >"$TOOLS/release-sdk-build.log" 2>&1 \
    || { tail -n 30 "$TOOLS/release-sdk-build.log" >&2; die "$1 is tagged, but its SDK packages did not build (above): fix that and run make release again"; }
  lap "SDK packages built"
  if $publish; then
    "$ROOT/scripts/release/publish.sh" || die "$1 is tagged, but not every registry has it: run make release again to publish the rest"
    lap "published"
  else
    echo "$1: packages in dist/ (not published: --no-publish)"
  fi
}

# Resuming: HEAD is a release already.
here="$(git tag --points-at HEAD --list 'v[0-9]*' | sort -V | tail -n 1)"
if [[ -n "$here" ]]; then
  log "HEAD is the release $here: publishing what the registries lack"
  publish_release "$here"
  exit 0
fi

work="$(mktemp -d)" && trap 'rm -rf "$work"' EXIT
log "comparing proto/ with every release"
"$ROOT/scripts/gate/gate" release plan >"$work/plan" 2>"$work/check.log" || { cat "$work/check.log" >&2; die "the release could not be planned (above)"; }
lap "planned"
kind="$(sed -n 's/^kind=//p' "$work/plan")" latest="$(sed -n 's/^latest=//p' "$work/plan")" next="$(sed -n 's/^next=//p' "$work/plan")" breaks="$(sed -n 's/^breaks=//p' "$work/plan")"
case "$kind" in
  none) die "nothing changed in the contracts since $latest: no release" ;;
  breaking)
    grep -E '^[a-z].*:[0-9]+:[0-9]+:' "$work/check.log" >&2 || true
    # No finding names a release when declarations went without one (a package an accepted
    # buf.yaml edit excluded): the SDKs still lose them.
    what="breaking changes for the clients of $breaks (above)"
    [[ -n "$breaks" ]] || what="declarations removed since $latest (the plan's 'removed' in .tmp/gate/findings.json)"
    [[ -n "$reason" ]] || die "refused: $what. A v1 package should not break: add v2 beside it (docs/releases.md). To release the break anyway, give the reason: make release REASON=\"…\"" ;;
esac
tag="v$next"
git rev-parse -q --verify "refs/tags/$tag" >/dev/null && die "$tag exists already: a version is released once"
[[ "$kind" == breaking || -z "$reason" ]] || echo "note: no breaking change since $latest; the reason is not recorded"

# Clients built on the last three releases, installed from the registries, against the services
# this commit builds (compatibility-tests/released/): a release that is not breaking must keep
# every one of them working, or it is refused; a breaking one, released with a reason, lists
# the cases that fail in its CHANGELOG section.
: >"$work/old-clients.md"
mapfile -t previous < <(git tag --list 'v[0-9]*' --sort=-v:refname | head -n 3 | sed 's/^v//')
if ((${#previous[@]})); then
  if [[ -z "${NPM_REGISTRY_URL:-}" || -z "${PYPI_INDEX_URL:-}" || -z "${MAVEN_REGISTRY_URL:-}" ]]; then
    $publish && die "the clients of earlier releases come from the registries: name them first (eval \"\$(scripts/release/registries.sh env)\", or a hosted registry's URLs)"
    echo "note: no registries named (--no-publish): the clients of ${previous[*]} were not checked"
  else
    log "clients of ${previous[*]} against the services of this commit"
    rm -f "$TOOLS/compat/matrix.json"
    "$ROOT/scripts/tests/compat.sh" released "${previous[@]}" >"$work/old-clients.log" 2>&1 || true
    [[ -f "$TOOLS/compat/matrix.json" ]] || { tail -30 "$work/old-clients.log" >&2; die "the clients of earlier releases could not be run (above)"; }
    python3 - "$TOOLS/compat/matrix.json" >"$work/old-clients.md" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
for c in m["cases"]:
    if c["verdict"] in ("FAIL", "XPASS"):
        print(f"- `{c['case']}`: {c['detail']}")
PY
    sed -n 's/^\([0-9]*\) cases: /clients of earlier releases: \1 cases: /p' "$work/old-clients.log"
    grep -E "service images ready in|clients and harness built in" "$work/old-clients.log" | sed 's/^==> /time:   of which /' >&2 || true
    lap "clients of earlier releases run"
    if [[ -s "$work/old-clients.md" && "$kind" != breaking ]]; then
      cat "$work/old-clients.md" >&2
      die "refused: clients of earlier releases fail against the new services (above; matrix in .tmp/compat/matrix.md). a release that is not breaking must keep them working"
    fi
  fi
fi

log "releasing $tag (${kind}${latest:+ since $latest})"
# Until the commit, a failure leaves the tree as it was (it was clean).
trap 'git reset -q --hard HEAD; rm -rf "$work"; die "the release of $tag failed before its commit; nothing was changed"' ERR
"$ROOT/scripts/gate/gate" release notes --tag "$tag" --previous "${latest:-}" --kind "$kind" --reason "$reason" --old-clients "$work/old-clients.md" >"$work/section.md"
{ echo "# Changelog"; echo; cat "$work/section.md"; [[ -f CHANGELOG.md ]] && sed '1{/^# Changelog$/d};2{/^$/d}' CHANGELOG.md; } >"$work/CHANGELOG.md"
mv "$work/CHANGELOG.md" CHANGELOG.md
sed -i "s/^SDK_VERSION=.*/SDK_VERSION=$next/" versions.env
"$ROOT/scripts/gate/gate" versions write >/dev/null
"$ROOT/scripts/gate/gate" gen >/dev/null
git add -A
git commit -q -F - <<MSG
Release $tag

$(cat "$work/section.md")
MSG
# A breaking release records each break it accepted as an Accepted-Break line of its tag: the
# check against every release then waives exactly those, against the releases before it.
cp "$work/section.md" "$work/tag.md"
if [[ "$kind" == breaking ]]; then
  "$ROOT/scripts/gate/gate" release accepted-breaks >>"$work/tag.md"
fi
git tag -a "$tag" -F "$work/tag.md"
trap - ERR
lap "committed and tagged"
echo "committed and tagged $tag ($(git rev-parse --short HEAD)); push both: git push origin HEAD $tag"
publish_release "$tag"
