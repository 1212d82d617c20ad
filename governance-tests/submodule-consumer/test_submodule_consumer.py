"""The git-submodule consumer path, end to end, with real git, buf, Maven and tsc.

The tests run in file order and share one world (conftest.py): each one moves the contracts
and the service on from where the previous one left them, as a team's history would.
"""

import json
import pathlib
import re

from conftest import ROOT, TEMPLATE, World, build, copy_listed, git, npm_install, run

PERSON = "proto/acme/person/v1/person.proto"
LAST_PERSON_FIELD = "  google.protobuf.Timestamp created_at = 6;\n"


def add_person_field(comment: str, declaration: str):
    def edit(repo: pathlib.Path) -> None:
        path = repo / PERSON
        text = path.read_text()
        assert LAST_PERSON_FIELD in text
        path.write_text(text.replace(LAST_PERSON_FIELD, f"{LAST_PERSON_FIELD}  // {comment}\n  {declaration}\n"))
    return edit


def renumber_age(repo: pathlib.Path) -> None:
    path = repo / PERSON
    text = path.read_text()
    assert "int32 age = 3 [" in text
    path.write_text(text.replace("int32 age = 3 [", "int32 age = 9 ["))


def generated_person(world: World) -> str:
    return (world.service / "src/gen/acme/person/v1/person_pb.ts").read_text()


def contracts_version(repo: pathlib.Path) -> str:
    return (repo / "src/gen/contracts_version.ts").read_text()


def last_message(repo: pathlib.Path) -> str:
    return git(repo, "log", "-1", "--format=%B")


def read_env(path: pathlib.Path) -> dict[str, str]:
    pairs = (line.split("=", 1) for line in path.read_text().splitlines() if line and not line.startswith("#"))
    return dict(pairs)


def test_template_pins_the_versions_this_repository_pins():
    # The template is copied into other repositories, so it carries literal versions of its
    # own; they must not drift from versions.env (its lockfile is checked by npm_install).
    versions = read_env(ROOT / "versions.env")
    manifest = json.loads((TEMPLATE / "package.json").read_text())
    pinned = {**manifest["dependencies"], **manifest["devDependencies"]}
    assert pinned == {
        "@bufbuild/buf": versions["BUF_VERSION"],
        "@bufbuild/protoc-gen-es": versions["PROTOBUF_ES_VERSION"],
        "@bufbuild/protobuf": versions["PROTOBUF_ES_VERSION"],
        "@bufbuild/protovalidate": versions["PROTOVALIDATE_ES_VERSION"],
        "typescript": versions["TYPESCRIPT_VERSION"],
    }
    assert read_env(TEMPLATE / "contracts.env")["PROTOVALIDATE_VERSION"] == versions["PROTOVALIDATE_JAVA_VERSION"]


def test_service_generates_and_compiles_at_the_release_tag(world: World):
    tag_commit = git(world.contracts, "rev-parse", "v0.1.0^{commit}")
    assert world.pin() == tag_commit
    assert 'CONTRACTS_VERSION = "v0.1.0"' in contracts_version(world.service)
    assert (world.service / "dist/contracts.js").is_file()
    # validate.proto was fetched for buf, never committed.
    assert (world.service / ".contracts-deps/proto/buf/validate/validate.proto").is_file()
    assert "buf/validate" not in git(world.service, "ls-files")
    # The generated code takes buf.validate from @bufbuild/protovalidate, not from itself.
    assert "@bufbuild/protovalidate/gen/buf/validate/validate_pb.js" in generated_person(world)


def test_add_contracts_pins_the_tag_in_one_commit(world: World):
    # Edge: by hand, a commit right after `git submodule add` pins the default branch.
    assert git(world.service, "log", "-1", "--format=%s") == "Consume the contracts at v0.1.0 as a submodule"
    changed = git(world.service, "show", "--name-only", "--format=", "HEAD").splitlines()
    assert ".gitmodules" in changed and "contracts" in changed
    assert all(p in (".gitmodules", "contracts") or p.startswith("src/gen/") for p in changed), changed
    assert git(world.service, "status", "--porcelain") == ""


def test_add_contracts_refuses_a_tag_that_does_not_exist_and_leaves_nothing(world: World):
    fresh = world.tmp / "fresh-service"
    fresh.mkdir()
    copy_listed(TEMPLATE, fresh, ".")
    git(fresh, "init", "-q", "-b", "main")
    git(fresh, "add", "-A")
    git(fresh, "commit", "-qm", "template")

    result = run(fresh, "scripts/add-contracts", world.contracts_url, "v0.1.9", check=False)

    assert result.returncode != 0
    assert "'v0.1.9' is no tag of the contracts repository; its newest tags: v0.1.0" in result.stderr
    assert git(fresh, "status", "--porcelain") == ""
    assert not (fresh / "contracts").exists()


def test_safe_bump_to_a_new_tag_is_committed_and_still_compiles(world: World):
    before = git(world.service, "rev-parse", "HEAD")
    new = world.release("Person: add nickname", "v0.2.0",
                        add_person_field("nickname is what friends call the person.", "string nickname = 7;"))

    result = world.bump("v0.2.0")

    assert result.returncode == 0, result.stdout + result.stderr
    assert "buf breaking: no breaking change" in result.stdout
    assert f"now built against v0.2.0 (commit {new})" in result.stdout
    assert "not a release tag" not in result.stderr
    assert world.pin() == new
    assert git(world.service, "rev-parse", "HEAD~1") == before
    assert git(world.service / "contracts", "rev-parse", "HEAD") == new
    message = last_message(world.service)
    assert message.startswith("Bump contracts to v0.2.0\n")
    assert "no breaking change" in message
    assert "Contracts-Breaking-Override" not in message
    assert "nickname: string;" in generated_person(world)
    assert 'CONTRACTS_VERSION = "v0.2.0"' in contracts_version(world.service)
    assert git(world.service, "status", "--porcelain") == ""
    build(world.service)


def test_bump_to_an_untagged_commit_warns(world: World):
    new = world.release("Person: add pronouns", None,
                        add_person_field("pronouns are how the person is referred to.", "string pronouns = 8;"))

    result = world.bump("main")

    assert result.returncode == 0, result.stdout + result.stderr
    assert "is not a release tag (v*) but v0.2.0-1-g" in result.stderr
    assert "now built against v0.2.0-1-g" in result.stdout
    assert world.pin() == new
    assert 'CONTRACTS_VERSION = "v0.2.0-1-g' in contracts_version(world.service)


def test_a_mistyped_tag_gets_the_newest_tags(world: World):
    head = git(world.service, "rev-parse", "HEAD")
    result = world.bump("v0.2.1")
    assert result.returncode != 0
    assert "'v0.2.1' is no tag, branch or commit of the contracts repository; its newest tags: v0.2.0, v0.1.0" in result.stderr
    assert git(world.service, "rev-parse", "HEAD") == head


def test_breaking_bump_is_refused_and_changes_nothing(world: World):
    head, pin = git(world.service, "rev-parse", "HEAD"), world.pin()
    world.release("Person: renumber age", "v0.3.0", renumber_age)

    result = world.bump("v0.3.0")

    assert result.returncode != 0
    assert 'FIELD_NO_DELETE : Previously present field "3" with name "age" on message "Person" was deleted.' in result.stdout
    assert "refused: 1 breaking change(s)" in result.stderr
    assert "--allow-breaking" in result.stderr
    assert git(world.service, "rev-parse", "HEAD") == head
    assert world.pin() == pin
    assert git(world.service / "contracts", "rev-parse", "HEAD") == pin
    assert git(world.service, "status", "--porcelain") == ""


def test_override_needs_a_written_reason(world: World):
    head = git(world.service, "rev-parse", "HEAD")
    for reason in ("", "   "):
        result = world.bump("v0.3.0", "--allow-breaking", reason)
        assert result.returncode != 0
        assert "needs a written reason" in result.stderr
    assert "needs a written reason" in world.bump("v0.3.0", "--allow-breaking").stderr
    assert git(world.service, "rev-parse", "HEAD") == head
    assert git(world.service, "status", "--porcelain") == ""


def test_breaking_bump_with_override_records_the_reason(world: World):
    reason = "age moved to 9 with the person-spring migration; every client regenerates in this release (ticket ACME-42)"
    new = git(world.contracts, "rev-parse", "v0.3.0^{commit}")

    result = world.bump("v0.3.0", "--allow-breaking", reason)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "accepting 1 breaking change(s) by override" in result.stderr
    assert f"now built against v0.3.0 (commit {new})" in result.stdout
    assert world.pin() == new
    message = last_message(world.service)
    assert message.startswith("Bump contracts to v0.3.0, overriding breaking changes\n")
    assert "FIELD_NO_DELETE" in message
    assert message.rstrip().endswith(f"Contracts-Breaking-Override: {reason}")
    trailer = git(world.service, "log", "-1", "--format=%(trailers:key=Contracts-Breaking-Override,valueonly)")
    assert trailer == reason
    assert git(world.service, "status", "--porcelain") == ""
    build(world.service)
    git(world.service, "push", "-q", "origin", "main")


def test_bump_refuses_a_dirty_working_tree(world: World):
    (world.service / "notes.txt").write_text("not committed\n")
    try:
        result = world.bump("v0.1.0")
        assert result.returncode != 0
        assert "working tree has changes" in result.stderr
        assert "?? notes.txt" in result.stderr  # the files, named
    finally:
        (world.service / "notes.txt").unlink()


def test_clone_with_recurse_submodules_builds(world: World):
    clone = world.tmp / "clone"
    run(world.tmp, "git", "clone", "-q", "--recurse-submodules", world.service_url, str(clone))

    assert git(clone / "contracts", "rev-parse", "HEAD") == world.pin()
    npm_install(clone)
    build(clone)
    # What it generates from its own checkout is exactly what was committed.
    run(clone, "scripts/contracts-gen")
    assert git(clone, "status", "--porcelain") == ""
    assert 'CONTRACTS_VERSION = "v0.3.0"' in contracts_version(clone)


def check(repo: pathlib.Path, base: str, *args: str):
    return run(repo, "scripts/check-contracts-bump", base, *args, check=False)


def test_pull_request_check_passes_a_safe_bump(world: World):
    clone = world.tmp / "clone"
    safe_bump = git(clone, "log", "--format=%H", "--grep=^Bump contracts to v0.2.0$")
    git(clone, "checkout", "-q", "--recurse-submodules", safe_bump)
    try:
        result = check(clone, f"{safe_bump}~1")
        assert result.returncode == 0, result.stdout + result.stderr
        assert "contracts: v0.1.0 (" in result.stdout and ") -> v0.2.0 (" in result.stdout
        assert "buf breaking: no breaking change" in result.stdout
        assert "generated code matches the pin" in result.stdout
        assert "now built against v0.2.0" in result.stdout
    finally:
        git(clone, "checkout", "-q", "--recurse-submodules", "main")


def test_pull_request_check_of_an_override_bump(world: World):
    clone = world.tmp / "clone"
    base = "HEAD~1"

    refused = check(clone, base)
    assert refused.returncode != 0
    assert "FIELD_NO_DELETE" in refused.stdout
    assert "does not accept overrides" in refused.stderr

    accepted = check(clone, base, "--allow-override")
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    assert "accepted by override: age moved to 9" in accepted.stderr


def test_pull_request_check_refuses_a_hand_made_breaking_bump(world: World):
    clone = world.tmp / "clone"
    git(clone, "checkout", "-q", "--recurse-submodules", "-b", "by-hand", "HEAD~1")
    git(clone / "contracts", "checkout", "-q", "v0.3.0")
    run(clone, "scripts/contracts-gen")
    git(clone, "commit", "-qam", "move the pin without the bump command")

    result = check(clone, "HEAD~1", "--allow-override")

    assert result.returncode != 0
    assert "no Contracts-Breaking-Override reason" in result.stderr


def test_pull_request_check_finds_stale_generated_code(world: World):
    clone = world.tmp / "clone"
    first = git(clone, "log", "--format=%H", "--grep=^Consume the contracts at v0.1.0", "main")
    git(clone, "checkout", "-q", "--recurse-submodules", "-b", "stale", first)
    git(clone / "contracts", "checkout", "-q", "v0.2.0")
    git(clone, "commit", "-qam", "move the pin, forget to regenerate")  # -a stages the gitlink only

    result = check(clone, "HEAD~1")

    assert result.returncode != 0
    assert "buf breaking: no breaking change" in result.stdout
    assert "generated code does not match the contracts pin" in result.stderr
    assert "src/gen/acme/person/v1/person_pb.ts" in result.stderr
    # The check puts the generated code back as it was.
    assert git(clone, "status", "--porcelain", "--", "src/gen") == ""
    git(clone, "checkout", "-q", "--recurse-submodules", "main")


def test_pull_request_check_ignores_files_that_are_not_generated(world: World):
    clone = world.tmp / "clone"
    (clone / "notes.txt").write_text("a note, not committed\n")
    readme = clone / "README.md"
    readme.write_text(readme.read_text() + "\nan edit in progress\n")
    try:
        result = check(clone, "HEAD~1", "--allow-override")
        assert result.returncode == 0, result.stdout + result.stderr
        assert "generated code matches the pin" in result.stdout
    finally:
        (clone / "notes.txt").unlink()
        git(clone, "checkout", "-q", "--", "README.md")


def test_pull_request_check_refuses_an_override_reason_typed_by_hand(world: World):
    # The README says an override is recorded by bump-contracts: a commit that moves the pin
    # with a hand-written trailer does not count.
    clone = world.tmp / "clone"
    git(clone, "checkout", "-q", "--recurse-submodules", "-b", "typed-by-hand", "HEAD~1")
    git(clone / "contracts", "checkout", "-q", "v0.3.0")
    run(clone, "scripts/contracts-gen")
    git(clone, "commit", "-qam", "Bump contracts to v0.3.0\n\nContracts-Breaking-Override: trust me")
    try:
        result = check(clone, "HEAD~1", "--allow-override")
        assert result.returncode != 0
        assert "was not made by scripts/bump-contracts" in result.stderr
        assert "no Contracts-Breaking-Override reason recorded by scripts/bump-contracts" in result.stderr
    finally:
        git(clone, "checkout", "-q", "--recurse-submodules", "main")


def test_a_clone_without_submodules_is_told_to_init_them(world: World):
    flat = world.tmp / "flat-clone"
    run(world.tmp, "git", "clone", "-q", world.service_url, str(flat))
    assert list((flat / "contracts").iterdir()) == []
    for command in (["scripts/bump-contracts", "v0.2.0"], ["scripts/contracts-gen"],
                    ["scripts/check-contracts-bump", "HEAD~1"]):
        result = run(flat, *command, check=False)
        assert result.returncode != 0, command
        assert "run git submodule update --init" in result.stderr, (command, result.stderr)
    # Nothing was fetched into the service's own repository, nothing written.
    assert git(flat, "tag", "--list") == ""
    assert git(flat, "status", "--porcelain") == ""


def test_the_readme_documents_every_option_and_how_to_pin_the_workflow():
    readme = (TEMPLATE / "README.md").read_text()
    for script in sorted((TEMPLATE / "scripts").iterdir()):
        # The options each script's argument loop takes (its case patterns), --help aside.
        taken = re.findall(r"^\s*(?:-\w \| )?(--[a-z][a-z-]+)[=*]*\)", script.read_text(), re.M)
        assert taken or script.name not in ("bump-contracts", "check-contracts-bump"), script.name
        for option in sorted(set(taken) - {"--help"}):
            assert option in readme, f"{script.name}'s {option} is not in the README"
    assert "full commit SHA" in readme
    assert "full commit SHA" in (TEMPLATE / ".github/workflows/contracts.yml").read_text()
