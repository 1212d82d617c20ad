#!/usr/bin/env bash
# tests/release.sh — `make test-release` (part of `make test`): releases as a team makes them,
# in a throwaway copy of this repository with registries of its own. The first release is
# SDK_VERSION; an additive change is released as the next minor with a CHANGELOG section, and
# the outside consumer projects (consumers/outside/) install the previous and the new version
# from the registries and call the services with each; a
# breaking change is refused without a reason (no tag, no commit, the tree as it was) and
# released as the next minor (0.x) with one, its tag recording the break it accepted; running
# it again on the tag only checks that every registry has the release; nothing changed, nothing
# is released; a field number freed by that break and reused with another type is compatible
# with the latest release but refused for breaking the two before it. Every version is then in
# every registry.
source "$(dirname "$0")/../lib.sh"
export REGISTRIES_DIR="$TOOLS/registries-release-test" NPM_REGISTRY_PORT="$(free_port)" PYPI_REGISTRY_PORT="$(free_port)" MAVEN_REGISTRY_PORT="$(free_port)"
copy="$(mktemp -d)/contracts"
rm -rf "$REGISTRIES_DIR"
trap '"$ROOT/scripts/release/registries.sh" down >/dev/null; COMPAT_TOPOLOGY="release-test-$$" "$ROOT/compatibility-tests/topology.sh" down
  rm -rf "$REGISTRIES_DIR" "$(dirname "$copy")"' EXIT
"$ROOT/scripts/release/registries.sh" up >/dev/null
eval "$("$ROOT/scripts/release/registries.sh" env)"

# The copy: this working tree's tracked and unignored files, its own history; the tools linked.
mkdir -p "$copy"
git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
  [[ -f "$f" ]] && install -D -m "$(stat -c %a "$f")" "$f" "$copy/$f"
done
ln -s "$TOOLS" "$copy/.tmp" && ln -s "$ROOT/node_modules" "$copy/node_modules"
export GIT_AUTHOR_NAME=release-suite GIT_AUTHOR_EMAIL=suite@example.invalid GIT_COMMITTER_NAME=release-suite GIT_COMMITTER_EMAIL=suite@example.invalid
cd "$copy"
git init -q -b main && git add -A && git commit -qm "contracts as they are"
# make release is this script with the Makefile's set-up, which the copy shares with the tree.
release() { scripts/release/release.sh "$@" >"$copy/../release.log" 2>&1; }
expect() { grep -qF -- "$1" "$copy/../release.log" || { tail -30 "$copy/../release.log"; die "expected '$1' ($2)"; }; }
tags() { git tag --list 'v*' --sort=v:refname | paste -sd' ' -; }

log "the first release is SDK_VERSION ($SDK_VERSION)"
release || { tail -30 ../release.log; die "the first release failed"; }
[[ "$(tags)" == "v$SDK_VERSION" ]] || die "tags after the first release: $(tags)"
expect "@acme/contracts@$SDK_VERSION published" "published to npm"

log "an additive change: the next minor"
python3 - <<'PY'
import pathlib
p = pathlib.Path("proto/acme/person/v1/person.proto")
last = "  google.protobuf.Timestamp created_at = 6;\n"
p.write_text(p.read_text().replace(last, last + "  // nickname is what friends call the person.\n  string nickname = 7;\n"))
PY
scripts/gate/gen.sh >/dev/null && git add -A && git commit -qm "Person: nickname"
release || { tail -30 ../release.log; die "the additive release failed"; }
[[ "$(tags)" == "v0.1.0 v0.2.0" ]] || die "tags: $(tags)"
grep -q "^SDK_VERSION=0.2.0$" versions.env || die "versions.env does not say 0.2.0"
grep -q '"version": "0.2.0"' gen/ts/package.json || die "gen/ts/package.json does not say 0.2.0"
grep -qF -- '- `acme.person.v1.Person.nickname`' CHANGELOG.md || die "CHANGELOG.md does not list the new field"
[[ -z "$(git status --porcelain)" ]] || die "the release left changes: $(git status --porcelain)"

log "outside consumers: the previous (0.1.0) and the new (0.2.0) from the registries, against the services"
# The services are this tree's images; 0.2.0 only added a field they do not know, so clients
# of both versions must work with them.
"$ROOT/scripts/services/images.sh" >/dev/null
eval "$(COMPAT_TOPOLOGY="release-test-$$" "$ROOT/compatibility-tests/topology.sh" up)"
"$ROOT/scripts/tests/outside-consumers.sh" 0.1.0 0.2.0
COMPAT_TOPOLOGY="release-test-$$" "$ROOT/compatibility-tests/topology.sh" down

log "a breaking change: refused without a reason, changing nothing"
sed -i 's/int32 age = 3 \[/int32 age = 9 [/' proto/acme/person/v1/person.proto
scripts/gate/gen.sh >/dev/null && git add -A && git commit -qm "Person: age renumbered"
head="$(git rev-parse HEAD)"
if release; then die "a breaking release without a reason was made"; fi
expect "refused: breaking changes since v0.2.0" "refused"
expect "FIELD_NO_DELETE" "the finding named"
[[ "$(git rev-parse HEAD)" == "$head" && -z "$(git status --porcelain)" && "$(tags)" == "v0.1.0 v0.2.0" ]] \
  || die "the refused release changed something"
release --allow-breaking "age moved to 9 with the migration; every client regenerates (ACME-42)" \
  || { tail -30 ../release.log; die "the breaking release with a reason failed"; }
[[ "$(tags)" == "v0.1.0 v0.2.0 v0.3.0" ]] || die "tags: $(tags)"
grep -qF "released with a reason: age moved to 9" CHANGELOG.md || die "CHANGELOG.md lacks the reason"
grep -qF '`FIELD_NO_DELETE`' CHANGELOG.md || die "CHANGELOG.md lacks the breaking finding"
git tag --list --format='%(contents)' v0.3.0 | grep -qx "Accepted-Break: FIELD_NO_DELETE acme.person.v1.Person" \
  || die "the v0.3.0 tag does not record the break it accepted"

log "again on the tag: only what the registries lack is published (nothing)"
release || { tail -30 ../release.log; die "running the release again failed"; }
expect "HEAD is the release v0.3.0" "resumed"
expect "is already there" "nothing published twice"
[[ "$(tags)" == "v0.1.0 v0.2.0 v0.3.0" ]] || die "a second tag: $(tags)"

log "nothing changed: no release"
git commit -q --allow-empty -m "nothing"
if release; then die "a release without a change was made"; fi
expect "nothing changed in the contracts since v0.3.0" "refused"

log "number 3 reused with another type: compatible with v0.3.0, refused for breaking v0.2.0's clients"
sed -i 's|  int32 age = 9 \[|  // age_text was age in words.\n  string age_text = 3;\n  int32 age = 9 [|' proto/acme/person/v1/person.proto
scripts/gate/gen.sh >/dev/null && git add -A && git commit -qm "Person: age_text reuses 3"
head="$(git rev-parse HEAD)"
if release; then die "a release that breaks v0.2.0's clients was made"; fi
expect "[acme.person.v1.Person.age_text] — breaks v0.2.0, v0.1.0 — refused: it breaks the clients of v0.2.0, v0.1.0" "the earlier releases named"
expect "refused: breaking changes for the clients of earlier releases" "refused as breaking"
[[ "$(git rev-parse HEAD)" == "$head" && "$(tags)" == "v0.1.0 v0.2.0 v0.3.0" ]] || die "the refused release changed something"
git reset -q --hard HEAD~1

log "every version is in every registry"
# Read whole first: grep -q stops reading at its match, and curl's SIGPIPE would fail the pipe.
npm_versions="$(curl -sf "${NPM_REGISTRY_URL}@acme%2fcontracts")" pypi_files="$(curl -sf "${PYPI_INDEX_URL}acme-contracts/")"
for v in 0.1.0 0.2.0 0.3.0; do
  grep -q "\"$v\"" <<<"$npm_versions" || die "npm lacks $v"
  grep -q "acme_contracts-$v-" <<<"$pypi_files" || die "PyPI lacks $v"
  curl -sf -o /dev/null "${MAVEN_REGISTRY_URL}com/acme/contracts/acme-contracts/$v/acme-contracts-$v.jar" || die "Maven lacks $v"
done
echo "released v0.1.0, v0.2.0 (additive) and v0.3.0 (breaking, with a reason); each in npm, PyPI and Maven"
