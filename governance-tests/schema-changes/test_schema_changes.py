"""The governance gate against the edit table in edits.py, plus the drift gate and the
ways the breaking check picks its base. Every case runs the real scripts on a real git
repository; nothing about buf is mocked."""

import os
import pathlib
import subprocess

import pytest

from conftest import git
from edits import BREAKING, LINT_AND_FORMAT, PERSON, RULES_BREAKING, RULES_SAFE, SAFE, USER, Case, Create, Move, Replace


def apply(repo: pathlib.Path, case: Case) -> None:
    for edit in case.edits:
        if isinstance(edit, Replace):
            path = repo / edit.path
            text = path.read_text()
            assert text.count(edit.old) == 1, f"{case.id}: {edit.old!r} must occur once in {edit.path}"
            path.write_text(text.replace(edit.old, edit.new))
        elif isinstance(edit, Move):
            git(repo, "mv", edit.path, edit.to)
        elif isinstance(edit, Create):
            (repo / edit.path).write_text(edit.text)
        else:
            raise TypeError(edit)


def commit(repo: pathlib.Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def run(repo: pathlib.Path, script: str, **env: str) -> subprocess.CompletedProcess:
    clean_env = {k: v for k, v in os.environ.items() if k not in ("BASE_REF", "SCHEMA_ONLY")}
    return subprocess.run(
        ["bash", f"scripts/gate/{script}"],
        cwd=repo,
        capture_output=True,
        text=True,
        env={**clean_env, **env},
        timeout=300,
    )


def gate(repo: pathlib.Path, **env: str) -> subprocess.CompletedProcess:
    """lint + format + breaking: the schema part of `make check` (drift is tested below)."""
    return run(repo, "check.sh", SCHEMA_ONLY="1", **env)


def output(result: subprocess.CompletedProcess) -> str:
    return result.stdout + result.stderr


@pytest.mark.parametrize("case", BREAKING + LINT_AND_FORMAT + RULES_BREAKING, ids=lambda c: c.id)
def test_gate_refuses(clone, case):
    apply(clone, case)
    commit(clone, case.id)
    result = gate(clone)
    assert result.returncode != 0, f"{case.id} passed the gate:\n{output(result)}"
    assert case.rule in output(result), f"{case.id}: expected {case.rule}:\n{output(result)}"


@pytest.mark.parametrize("case", SAFE + RULES_SAFE, ids=lambda c: c.id)
def test_gate_accepts(clone, case):
    apply(clone, case)
    commit(clone, case.id)
    result = gate(clone)
    assert result.returncode == 0, f"{case.id} was refused:\n{output(result)}"
    assert "governance gate passed" in output(result)


def test_suite_is_large_enough():
    assert len(BREAKING) + len(LINT_AND_FORMAT) + len(SAFE) >= 20


def test_uncommitted_breaking_edit_is_caught(clone):
    apply(clone, BREAKING[0])
    result = gate(clone)
    assert result.returncode != 0
    assert BREAKING[0].rule in output(result)


def test_base_ref_overrides_the_merge_base(clone):
    # CI compares a pull request with its base commit. A breaking commit made on main
    # itself has no merge-base difference, so only BASE_REF can catch it.
    git(clone, "checkout", "-q", "main")
    apply(clone, BREAKING[0])
    commit(clone, "breaking change straight on main")
    assert gate(clone).returncode == 0
    result = gate(clone, BASE_REF="HEAD~1")
    assert result.returncode != 0
    assert BREAKING[0].rule in output(result)


def test_unknown_base_ref_is_a_clear_error(clone):
    result = gate(clone, BASE_REF="no-such-ref")
    assert result.returncode != 0
    assert "BASE_REF=no-such-ref is not a commit" in output(result)


def test_drift_gate_passes_on_a_regenerated_tree(clone):
    result = run(clone, "check-drift.sh")
    assert result.returncode == 0, output(result)


def test_drift_gate_catches_a_proto_change_without_regeneration(clone):
    apply(clone, SAFE[0])  # a new field, but gen/ is not regenerated
    commit(clone, "field added, gen/ forgotten")
    result = run(clone, "check-drift.sh")
    assert result.returncode != 0
    assert "gen/java/src/main/java/com/acme/person/v1/Person.java" in output(result)
    assert "gen/ts/src/acme/person/v1/person_pb.ts" in output(result)
    assert "gen/python/src/acme/person/v1/person_pb2.py" in output(result)


def test_drift_gate_catches_a_hand_edited_generated_file(clone):
    stub = clone / "gen/ts/src/acme/auth/v1/auth_service_pb.ts"
    stub.write_text(stub.read_text() + "\nexport const patchedByHand = true;\n")
    commit(clone, "hand edit under gen/")
    result = run(clone, "check-drift.sh")
    assert result.returncode != 0
    assert "gen/ts/src/acme/auth/v1/auth_service_pb.ts" in output(result)


def test_drift_gate_catches_a_manifest_version_edited_by_hand(clone):
    pyproject = clone / "gen/python/pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace('\nversion = "', '\nversion = "9', 1))
    commit(clone, "SDK version bumped in one manifest only")
    result = run(clone, "check-drift.sh")
    assert result.returncode != 0
    assert "gen/python/pyproject.toml" in output(result)


def test_drift_gate_catches_a_deleted_proto_whose_code_stayed(clone):
    apply(clone, Case("file-added", SAFE[5].edits))
    commit(clone, "new file")
    assert run(clone, "gen.sh").returncode == 0
    commit(clone, "regenerated")
    assert run(clone, "check-drift.sh").returncode == 0
    git(clone, "rm", "-q", "proto/acme/auth/v1/audit.proto")
    commit(clone, "file removed, gen/ forgotten")
    result = run(clone, "check-drift.sh")
    assert result.returncode != 0
    assert "audit" in output(result).lower()
    assert (clone / PERSON).exists()


def test_versions_gate_passes_on_the_tree(clone):
    result = run(clone, "check-versions.sh")
    assert result.returncode == 0, output(result)


def test_versions_gate_catches_a_pin_edited_by_hand(clone):
    # A pin outside gen/, which the drift gate does not regenerate: a service's runtime and a
    # workflow's Python, each edited in one file only.
    pom = clone / "services/person-spring/pom.xml"
    pom.write_text(pom.read_text().replace("<mapstruct.version>", "<mapstruct.version>9", 1))
    workflow = clone / ".github/workflows/ci.yml"
    workflow.write_text(workflow.read_text().replace("python-version: '", "python-version: '9", 1))
    commit(clone, "two pins bumped by hand")
    result = run(clone, "check-versions.sh")
    assert result.returncode != 0
    assert "services/person-spring/pom.xml: 91" in output(result)
    assert "MAPSTRUCT_VERSION=" in output(result)
    assert ".github/workflows/ci.yml: 93" in output(result)
    assert "PYTHON_VERSION=" in output(result)
    # The whole gate fails on it too, and names the check.
    result = run(clone, "check.sh")
    assert result.returncode != 0
    assert "governance gate FAILED: versions" in output(result)


def test_a_rule_loosened_on_a_response_is_refused(clone):
    # A client that validates answers would refuse what the server may now send. The base
    # needs the rule first: committed on main, then loosened on the branch.
    git(clone, "checkout", "-q", "main")
    apply(clone, RULES_SAFE[-1])
    commit(clone, "User.username: at least one character")
    git(clone, "checkout", "-q", "-b", "loosen")
    apply(clone, Case("rule-removed-from-a-response", (Replace(USER, " [(buf.validate.field).string.min_len = 1]", ""),)))
    commit(clone, "User.username: no rule")
    result = gate(clone)
    assert result.returncode != 0, output(result)
    assert "VALIDATE_STRING_MIN_LEN_LOOSENED" in output(result)
    assert "acme/auth/v1/user.proto:" in output(result)
    assert "on a message sent by servers; breaks clients that validate answers" in output(result)


def test_rule_findings_point_at_the_field(clone):
    apply(clone, RULES_BREAKING[0])
    commit(clone, RULES_BREAKING[0].id)
    result = gate(clone)
    line = next(l for l in output(result).splitlines() if "VALIDATE_STRING_MAX_LEN_TIGHTENED" in l)
    path, row, column = line.split(":")[:3]
    assert path == "acme/person/v1/person.proto"
    text = (clone / "proto" / path).read_text().splitlines()[int(row) - 1]
    assert text[int(column) - 1:].startswith("string name = 2"), text
    assert "(200 → 100)" in line
