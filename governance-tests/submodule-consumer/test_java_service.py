"""The Java template (consumers/submodule-template-java) on the same commands as the TypeScript
one: set up at a release tag, a safe bump that still compiles and passes its test, a breaking
bump refused, and the pull-request check of a bump and of stale generated code — with real git,
buf, protoc, protoc-gen-grpc-java and Maven. The tests share one world, in file order."""

import pathlib

from conftest import World, git, maven, run
from test_submodule_consumer import add_person_field, renumber_age

GENERATED = "src/generated/java"


def version_file(repo: pathlib.Path) -> str:
    return (repo / GENERATED / "com/example/service/contracts/ContractsVersion.java").read_text()


def generated_person(repo: pathlib.Path) -> str:
    return (repo / GENERATED / "com/acme/person/v1/Person.java").read_text()


def test_java_service_generates_and_compiles_at_the_release_tag(java_world: World):
    assert java_world.pin() == git(java_world.contracts, "rev-parse", "v0.1.0^{commit}")
    assert 'VERSION = "v0.1.0"' in version_file(java_world.service)
    assert (java_world.service / GENERATED / "com/acme/person/v1/PersonServiceGrpc.java").is_file()
    assert (java_world.service / "target/service-0.1.0-SNAPSHOT.jar").is_file()
    # buf.validate's classes come from the protovalidate runtime; the generators are fetched, not committed.
    assert not (java_world.service / GENERATED / "build").exists()
    assert (java_world.service / ".contracts-deps/bin/protoc").is_file()
    tracked = git(java_world.service, "ls-files")
    assert ".contracts-deps" not in tracked and "buf/validate" not in tracked
    assert git(java_world.service, "status", "--porcelain") == ""


def test_java_safe_bump_is_committed_and_still_compiles(java_world: World):
    new = java_world.release("Person: add nickname", "v0.2.0",
                             add_person_field("nickname is what friends call the person.", "string nickname = 7;"))

    result = java_world.bump("v0.2.0")

    assert result.returncode == 0, result.stdout + result.stderr
    assert "buf breaking: no breaking change" in result.stdout
    assert java_world.pin() == new
    assert "getNickname()" in generated_person(java_world.service)
    assert 'VERSION = "v0.2.0"' in version_file(java_world.service)
    assert git(java_world.service, "status", "--porcelain") == ""
    maven(java_world.service, "verify")
    git(java_world.service, "push", "-q", "origin", "main")


def test_java_breaking_bump_is_refused_and_changes_nothing(java_world: World):
    head, pin = git(java_world.service, "rev-parse", "HEAD"), java_world.pin()
    java_world.release("Person: renumber age", "v0.3.0", renumber_age)

    result = java_world.bump("v0.3.0")

    assert result.returncode != 0
    assert "FIELD_NO_DELETE" in result.stdout
    assert git(java_world.service, "rev-parse", "HEAD") == head
    assert java_world.pin() == pin
    assert git(java_world.service, "status", "--porcelain") == ""


def test_java_pull_request_check_passes_the_safe_bump_and_finds_stale_code(java_world: World):
    service = java_world.service
    result = run(service, "scripts/check-contracts-bump", "HEAD~1", check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "generated code matches the pin" in result.stdout

    git(service, "checkout", "-q", "-b", "stale", "HEAD~1")
    git(service, "submodule", "update", "-q")
    git(service / "contracts", "checkout", "-q", "v0.2.0")
    git(service, "commit", "-qam", "move the pin, forget to regenerate")
    try:
        stale = run(service, "scripts/check-contracts-bump", "HEAD~1", check=False)
        assert stale.returncode != 0
        assert "generated code does not match the contracts pin" in stale.stderr
        assert "src/generated/java/com/acme/person/v1/Person.java" in stale.stderr
        assert git(service, "status", "--porcelain", "--", GENERATED) == ""
    finally:
        git(service, "checkout", "-q", "main")
        git(service, "submodule", "update", "-q")
