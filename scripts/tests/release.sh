#!/usr/bin/env bash
# tests/release.sh — `make test-release` (part of `make test`): releases as a team makes them,
# in a throwaway copy of this repository with registries of its own:
#   - the first release is SDK_VERSION;
#   - an additive change is the next minor, with a CHANGELOG section; the clients of the earlier
#     releases (built on their SDKs from the registries: compatibility-tests/released/) pass
#     against the services of the commit, and the outside consumer projects
#     (consumers/outside/) install the previous and the new version and call the services;
#   - an addition whose services break the earlier clients at run time is refused;
#   - a breaking change is refused without a reason (no tag, no commit, the tree as it was) and
#     released as the next minor (0.x) with one: its tag records the break it accepted, its
#     CHANGELOG the cases in which earlier clients fail;
#   - run again on the tag, it only checks that every registry has the release;
#   - nothing changed, nothing is released;
#   - a package left out by buf.yaml with its deletion excepted (no finding) is refused as removed;
#   - a field number freed by that break, reused with another type, is compatible with the
#     latest release but refused for breaking the two before it; released with a reason (not
#     published), its CHANGELOG section names those two releases.
# Every version is then in every registry.
source "$(dirname "$0")/../lib.sh"
# step WHAT — a phase begins: the one before it ends, and its time is printed, then again in a
# table at the end (where the suite's minutes go).
phase="set-up: the registries" phase_start=$SECONDS phase_times=()
step() {
  phase_times+=("$(printf '%5d s  %s' $((SECONDS - phase_start)) "$phase")")
  echo "   (${phase}: $((SECONDS - phase_start)) s)"
  phase="$1" phase_start=$SECONDS
  [[ "$1" == end ]] || log "$1"
}
copy="$(mktemp -d)/contracts"
# The registries' data: this run's own (two runs side by side never share it).
export REGISTRIES_DIR="$TOOLS/registries-release-test-$$"
export_free_ports NPM_REGISTRY_PORT PYPI_REGISTRY_PORT MAVEN_REGISTRY_PORT
# The copy's releases build their services under an image tag of their own: on this tree's tag
# they would replace its images (which the outside consumers and every later suite run), and
# each side would rebuild what the other had just replaced.
copy_tag="$ACME_IMAGE_TAG-release-suite"
rm -rf "$REGISTRIES_DIR"
trap '"$ROOT/scripts/release/registries.sh" down >/dev/null; COMPAT_TOPOLOGY="release-test-$$" "$ROOT/compatibility-tests/topology.sh" down
  docker rmi "acme/auth-node:$copy_tag" "acme/person-spring:$copy_tag" "acme/web-proxy:$copy_tag" "acme/zipkin:$copy_tag" >/dev/null 2>&1 || true
  rm -rf "$REGISTRIES_DIR" "$(dirname "$copy")"' EXIT
"$ROOT/scripts/release/registries.sh" up >/dev/null
eval "$("$ROOT/scripts/release/registries.sh" env)"

step "the copy: its files, npm workspace and Maven repository"
# The copy: this working tree's tracked and unignored files, its own history; the tools linked.
mkdir -p "$copy"
# One cp for them all (a process per file took a minute on a loaded machine); -p keeps each
# file's mode, a link to a file is copied as the file, as install did.
git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' f; do
  if [[ -f "$f" ]]; then printf '%s\0' "$f"; fi
done | xargs -0 cp --parents -p -t "$copy"
# Its .tmp: the tree's installed tools and its download and gate caches (every entry keyed by
# its content) linked; everything the copy's runs write (the gate's findings, the harness's
# matrix and clients, build stamps, the web proxy's build) in a folder of its own, so they never
# overwrite the tree's, and nothing of an earlier run is taken for the copy's.
mkdir -p "$copy/.tmp"
for tool in bin cache maven node proto-deps proto-deps-grpc registry-servers stamps venv zipkin; do
  [[ -e "$TOOLS/$tool" ]] && ln -s "$TOOLS/$tool" "$copy/.tmp/$tool"
done
# The Docker engine, started by the tree's script (its log in the tree's .tmp) before the copy
# needs it.
"$ROOT/scripts/setup/docker.sh"
# An npm workspace of its own (seconds, from the cache): the copy's services and clients build on
# the copy's SDK, linked from its gen/ts, as in a checkout.
(cd "$copy" && npm ci --ignore-scripts --no-audit --no-fund --prefer-offline >/dev/null)
# The copy builds SDK versions of its own (0.2.0 here is not this tree's): in a Maven repository
# of its own, never in the shared one, copied from it. (Not Maven's read-only tail beneath an
# empty one: the outside projects' builds, mvn_from_registry, take every third-party artifact
# from one local repository standing in for Central, and that must hold them all.) Suites beside
# this one (tests/all.sh) may be writing to the shared repository meanwhile: Maven writes each
# artifact to a temporary file and renames it, so a copied artifact is whole, one written after
# the copy is downloaded again when the copy needs it, and the only error that can be is a
# temporary file renamed before cp reached it — no loss; any other error fails the suite.
export MAVEN_REPO_LOCAL="$(dirname "$copy")/m2"
if ! cp -a "$M2" "$MAVEN_REPO_LOCAL" 2>"$MAVEN_REPO_LOCAL.errors"; then
  if grep -v 'No such file or directory' "$MAVEN_REPO_LOCAL.errors" >&2; then die "copying the Maven repository failed (above)"; fi
  echo "   (the Maven repository was copied while a suite beside this one wrote to it: $(wc -l <"$MAVEN_REPO_LOCAL.errors") temporary files had gone)"
fi
export GIT_AUTHOR_NAME=release-suite GIT_AUTHOR_EMAIL=suite@example.invalid GIT_COMMITTER_NAME=release-suite GIT_COMMITTER_EMAIL=suite@example.invalid
cd "$copy"
git init -q -b main && git add -A && git commit -qm "contracts as they are"
# make release is this script with the Makefile's set-up, which the copy shares with the tree.
# Each run's own phase times (its "time:" lines) are printed after it.
release() {
  local status=0
  ACME_IMAGE_TAG="$copy_tag" scripts/release/release.sh "$@" >"$copy/../release.log" 2>&1 || status=$?
  sed -n 's/^time: /     release.sh: /p' "$copy/../release.log"
  return "$status"
}
expect() { grep -qF -- "$1" "$copy/../release.log" || { tail -30 "$copy/../release.log"; die "expected '$1' ($2)"; }; }
tags() { git tag --list 'v*' --sort=v:refname | paste -sd' ' -; }
# refused WHAT TAGS — make release must refuse (WHAT: what it was asked to release) and leave the
# commit, the working tree and the tags (TAGS afterwards) as they were.
refused() {
  local head
  head="$(git rev-parse HEAD)"
  if release; then die "$1 was released"; fi
  [[ "$(git rev-parse HEAD)" == "$head" && -z "$(git status --porcelain)" && "$(tags)" == "$2" ]] \
    || die "refusing $1 changed something"
}

step "the first release is SDK_VERSION ($SDK_VERSION)"
release || { tail -30 ../release.log; die "the first release failed"; }
[[ "$(tags)" == "v$SDK_VERSION" ]] || die "tags after the first release: $(tags)"
expect "@acme/contracts@$SDK_VERSION published" "published to npm"

step "an additive change: the next minor"
# A new message: a new field of Person would also need person-spring's mapper to say what it does
# with it (MapStruct refuses an unmapped target), which is the service's change, not this one.
cat >>proto/acme/person/v1/person.proto <<'PROTO'

// Team is a group of people.
message Team {
  // name is the team's display name.
  string name = 1;
}
PROTO
scripts/gate/gate gen >/dev/null && git add -A && git commit -qm "Team"
release || { tail -30 ../release.log; die "the additive release failed"; }
[[ "$(tags)" == "v0.1.0 v0.2.0" ]] || die "tags: $(tags)"
grep -q "^SDK_VERSION=0.2.0$" versions.env || die "versions.env does not say 0.2.0"
grep -q '"version": "0.2.0"' gen/ts/package.json || die "gen/ts/package.json does not say 0.2.0"
grep -qF -- '- `acme.person.v1.Team`' CHANGELOG.md || die "CHANGELOG.md does not list the new message"
[[ -z "$(git status --porcelain)" ]] || die "the release left changes: $(git status --porcelain)"
expect "clients of earlier releases: " "the clients of v0.1.0 ran against the new services"
expect " 0 FAIL, 0 expected, 0 XPASS" "and every case passed"
grep -h "clients of earlier releases: " "$copy/../release.log"

step "outside consumers: the previous (0.1.0) and the new (0.2.0) from the registries, against the services"
# The services are this tree's images; 0.2.0 only added a message they do not use, so clients
# of both versions must work with them.
# (Built, when not current, with the tree's own Maven repository: its SDK is not the copy's.)
env -u MAVEN_REPO_LOCAL "$ROOT/scripts/services/images.sh" >/dev/null
# Only the two services: the consumers need no web proxy and no newer schema, whose build in the
# tree's .tmp/compat the compatibility suite may be reading beside this one.
eval "$(COMPAT_TOPOLOGY="release-test-$$" TOPOLOGY_SERVICES_ONLY=1 "$ROOT/compatibility-tests/topology.sh" up)"
"$ROOT/scripts/tests/outside-consumers.sh" 0.1.0 0.2.0
COMPAT_TOPOLOGY="release-test-$$" "$ROOT/compatibility-tests/topology.sh" down

step "an addition whose services break earlier clients at run time: refused, changing nothing"
# auth-node now tells unknown users from wrong passwords: no schema rule sees it, the clients of
# 0.1.0 and 0.2.0 do.
sed -i 's/throw new ConnectError(LOGIN_FAILED, Code.Unauthenticated);/throw new ConnectError(LOGIN_FAILED, user ? Code.Unauthenticated : Code.NotFound);/' \
  services/auth-node/src/accounts.ts
grep -q "Code.NotFound" services/auth-node/src/accounts.ts || die "the auth-node edit no longer applies"
printf '%s\n' "" "// Badge is what a team member wears." "message Badge {" "  // label is printed on it." "  string label = 1;" "}" \
  >>proto/acme/person/v1/person.proto
scripts/gate/gate gen >/dev/null && git add -A && git commit -qm "Badge; auth-node: unknown users are NOT_FOUND"
refused "a change whose services break earlier clients" "v0.1.0 v0.2.0"
expect "refused: clients of earlier releases fail against the new services" "refused"
expect "@0.1.0/auth-node/grpc/" "a client of 0.1.0 named"
expect "@0.2.0/auth-node/grpc/" "a client of 0.2.0 named"
expect "expected UNAUTHENTICATED, got NOT_FOUND" "the failure said"
git reset -q --hard HEAD~1

step "a breaking change: refused without a reason, changing nothing"
sed -i 's/int32 age = 3 \[/int32 age = 9 [/' proto/acme/person/v1/person.proto
scripts/gate/gate gen >/dev/null && git add -A && git commit -qm "Person: age renumbered"
refused "a breaking change without a reason" "v0.1.0 v0.2.0"
expect "refused: breaking changes for the clients of v0.2.0, v0.1.0 (above)" "refused"
expect ":FIELD_NO_DELETE " "the finding named"
release --allow-breaking "age moved to 9 with the migration; every client regenerates (ACME-42)" \
  || { tail -30 ../release.log; die "the breaking release with a reason failed"; }
[[ "$(tags)" == "v0.1.0 v0.2.0 v0.3.0" ]] || die "tags: $(tags)"
grep -qF "released with a reason: age moved to 9" CHANGELOG.md || die "CHANGELOG.md lacks the reason"
grep -qF '`FIELD_NO_DELETE`' CHANGELOG.md || die "CHANGELOG.md lacks the breaking finding"
grep -qF "### Clients of earlier releases that fail against this one" CHANGELOG.md \
  && grep -qF -- '- `java@0.2.0/person-spring/grpc/' CHANGELOG.md \
  || die "CHANGELOG.md does not list the cases the clients of 0.2.0 fail against the renumbered age"
echo "v0.3.0: $(grep -c -- '^- `[a-z]*@0\.[12]\.0/' CHANGELOG.md) cases of the clients of 0.1.0 and 0.2.0 fail against it, listed in CHANGELOG.md"
git tag --list --format='%(contents)' v0.3.0 | grep -qx "Accepted-Break: FIELD_NO_DELETE acme.person.v1.Person.age" \
  || die "the v0.3.0 tag does not record the break it accepted"

step "again on the tag: only what the registries lack is published (nothing)"
release || { tail -30 ../release.log; die "running the release again failed"; }
expect "HEAD is the release v0.3.0" "resumed"
expect "is already there" "nothing published twice"
[[ "$(tags)" == "v0.1.0 v0.2.0 v0.3.0" ]] || die "a second tag: $(tags)"

step "nothing changed: no release"
git commit -q --allow-empty -m "nothing"
refused "a commit that changes nothing" "v0.1.0 v0.2.0 v0.3.0"
expect "nothing changed in the contracts since v0.3.0" "refused"

step "a package left out by buf.yaml with its deletion excepted: no finding, refused as removed declarations"
# buf.yaml's own edit is the pull request gate's finding (BUF_CONFIG_CHANGED); what the release
# sees is the contracts it would ship, which lack acme.auth.v1, and no rule that says so.
sed -i 's|^  - path: proto$|  - path: proto\n    excludes: [proto/acme/auth]|; s|^    - VALIDATE$|    - VALIDATE\n  except: [FILE_NO_DELETE]|' buf.yaml
grep -q 'except: \[FILE_NO_DELETE\]' buf.yaml && grep -q 'excludes: \[proto/acme/auth\]' buf.yaml || die "the buf.yaml edit no longer applies"
git commit -qam "buf.yaml: auth left out, its deletion excepted"
refused "a release without acme.auth.v1 that no finding names" "v0.1.0 v0.2.0 v0.3.0"
expect "refused: declarations removed since v0.3.0 (the plan's 'removed' in .tmp/gate/findings.json)" "refused as a removal"
git reset -q --hard HEAD~1

step "number 3 reused with another type: compatible with v0.3.0, refused for breaking v0.2.0's clients"
sed -i 's|  int32 age = 9 \[|  // age_text was age in words.\n  string age_text = 3;\n  int32 age = 9 [|' proto/acme/person/v1/person.proto
scripts/gate/gate gen >/dev/null && git add -A && git commit -qm "Person: age_text reuses 3"
refused "a change that breaks v0.2.0's clients" "v0.1.0 v0.2.0 v0.3.0"
expect "[acme.person.v1.Person.age_text] — breaks v0.2.0, v0.1.0 — refused: it breaks the clients of v0.2.0, v0.1.0" "the earlier releases named"
expect "refused: breaking changes for the clients of v0.2.0, v0.1.0 (above)" "refused as breaking"

step "the same, released with a reason (not published): its CHANGELOG names the earlier releases it breaks"
# Only the releases before the latest see this break, so a CHANGELOG read from the comparison
# with the latest release alone would say nothing of it.
(unset NPM_REGISTRY_URL PYPI_INDEX_URL MAVEN_REGISTRY_URL; release --no-publish --allow-breaking "age_text was agreed with every client team") \
  || { tail -30 ../release.log; die "the release of the reuse with a reason failed"; }
[[ "$(tags)" == "v0.1.0 v0.2.0 v0.3.0 v0.4.0" ]] || die "tags: $(tags)"
sed -n '/^## v0.4.0/,/^## v0.3.0/p' CHANGELOG.md | grep -qF -- '- `FIELD_SAME_TYPE` `acme.person.v1.Person.age_text` (breaks the clients of v0.2.0, v0.1.0)' \
  || die "CHANGELOG.md's v0.4.0 section does not name the releases the reuse breaks"
git tag --list --format='%(contents)' v0.4.0 | grep -qx "Accepted-Break: FIELD_SAME_TYPE acme.person.v1.Person.age_text" \
  || die "the v0.4.0 tag does not record the break it accepted"

step "every version is in every registry"
# Read whole first: grep -q stops reading at its match, and curl's SIGPIPE would fail the pipe.
npm_versions="$(curl -sf "${NPM_REGISTRY_URL}@acme%2fcontracts")" pypi_files="$(curl -sf "${PYPI_INDEX_URL}acme-contracts/")"
for v in 0.1.0 0.2.0 0.3.0; do
  grep -q "\"$v\"" <<<"$npm_versions" || die "npm lacks $v"
  grep -q "acme_contracts-$v-" <<<"$pypi_files" || die "PyPI lacks $v"
  curl -sf -o /dev/null "${MAVEN_REGISTRY_URL}com/acme/contracts/acme-contracts/$v/acme-contracts-$v.jar" || die "Maven lacks $v"
done
echo "released v0.1.0, v0.2.0 (additive) and v0.3.0 (breaking, with a reason); each in npm, PyPI and Maven"
step end
echo "the suite's phases:"
printf '%s\n' "${phase_times[@]}"
