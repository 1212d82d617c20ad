"""The Java template (consumers/submodule-template-java) on the same commands as the TypeScript
one: set up from its README at a release tag, a safe bump that still compiles and passes its
test, a breaking bump refused, the pull-request check of a bump and of stale generated code,
and a clone built as its README says — with real git, buf, protoc, protoc-gen-grpc-java and
Maven. Each test works in a clone of its own (conftest.py)."""

import pathlib
import re

from conftest import JAVA_TEMPLATE, Service, bump, check, checked_out, git, maven, pin, readme_block, run, run_block

GENERATED = "src/generated/java"


def version_file(repo: pathlib.Path) -> str:
    return (repo / GENERATED / "com/example/service/contracts/ContractsVersion.java").read_text()


def generated_person(repo: pathlib.Path) -> str:
    return (repo / GENERATED / "com/acme/person/v1/Person.java").read_text()


def test_java_readme_setup_generates_and_compiles_at_the_release_tag(java_service: Service):
    service = java_service.base
    assert pin(service) == java_service.contracts.commit("v0.1.0")
    assert 'VERSION = "v0.1.0"' in version_file(service)
    assert (service / GENERATED / "com/acme/person/v1/PersonServiceGrpc.java").is_file()
    assert (service / "target/service-0.1.0-SNAPSHOT.jar").is_file()
    # buf.validate's classes come from the protovalidate runtime; the generators are fetched, not committed.
    assert not (service / GENERATED / "build").exists()
    assert (service / ".contracts-deps/bin/protoc").is_file()
    tracked = git(service, "ls-files")
    assert ".contracts-deps" not in tracked and "buf/validate" not in tracked
    assert git(service, "status", "--porcelain") == ""


def test_java_safe_bump_is_committed_and_still_compiles(java_service: Service, tmp_path):
    service = java_service.clone(tmp_path / "service")
    new = java_service.contracts.commit("v0.2.0")

    result = bump(service, "v0.2.0")

    assert result.returncode == 0, result.stdout + result.stderr
    assert "buf breaking: no breaking change" in result.stdout
    assert pin(service) == new == checked_out(service)
    assert "getNickname()" in generated_person(service)
    assert 'VERSION = "v0.2.0"' in version_file(service)
    assert git(service, "status", "--porcelain") == ""
    maven(service, "verify")


def test_java_breaking_bump_is_refused_and_changes_nothing(java_service: Service, tmp_path):
    service = java_service.clone(tmp_path / "service")
    head, before = git(service, "rev-parse", "HEAD"), pin(service)

    result = bump(service, "v0.3.0")

    assert result.returncode == 1
    assert "FIELD_NO_DELETE" in result.stdout
    assert git(service, "rev-parse", "HEAD") == head
    assert pin(service) == before == checked_out(service)
    assert git(service, "status", "--porcelain") == ""


def test_java_pull_request_check_passes_the_safe_bump_and_finds_stale_code(java_service: Service, tmp_path):
    service = java_service.clone(tmp_path / "service")
    assert bump(service, "v0.2.0").returncode == 0

    result = check(service, "HEAD~1")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "generated code matches the pin" in result.stdout

    git(service, "checkout", "-q", "--recurse-submodules", "-b", "stale", "HEAD~1")
    git(service / "contracts", "checkout", "-q", "v0.2.0")
    git(service, "commit", "-qam", "move the pin, forget to regenerate")

    stale = check(service, "HEAD~1")
    assert stale.returncode == 1
    assert "generated code does not match the contracts pin" in stale.stderr
    assert "src/generated/java/com/acme/person/v1/Person.java" in stale.stderr
    assert git(service, "status", "--porcelain", "--", GENERATED) == ""


def test_java_clone_builds_as_the_readme_says_and_regenerates_without_drift(java_service: Service, tmp_path):
    block = readme_block(JAVA_TEMPLATE / "README.md", "A clone of the service")
    local = re.search(r"`(git -c protocol\.file\.allow=always clone --recurse-submodules) <service URL>`",
                      (JAVA_TEMPLATE / "scripts/README.md").read_text()).group(1)
    run_block(tmp_path, block.replace("git clone --recurse-submodules", local), **{"<service URL>": java_service.url})

    clone = tmp_path / "my-service"
    assert checked_out(clone) == pin(java_service.base)
    assert (clone / "target/service-0.1.0-SNAPSHOT.jar").is_file()
    # The block installed the tools every command needs (buf, which the bump asks for first).
    result = run(clone, "scripts/bump-contracts", "v0.1.0")
    assert "contracts: already at v0.1.0" in result.stdout
    assert git(clone, "status", "--porcelain") == ""
