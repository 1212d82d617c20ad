"""The governance gate against the edit table in edits.py, plus the versions gate and the ways
the breaking check picks its base. Every case runs the real gate on a real git repository;
nothing about buf is mocked. A breaking case names every finding it expects (rule, element),
read from the gate's findings document."""

import pytest

from conftest import git
from edits import BREAKING, LINT_AND_FORMAT, PERSON, RULES_BREAKING, RULES_SAFE, SAFE, USER, Case, Create, Move, Replace
from gate import commit, document, finding, findings, gate, output, run

__all__ = ["apply", "commit", "gate", "output", "run"]


def apply(repo, case: Case) -> None:
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


@pytest.mark.parametrize("case", BREAKING + RULES_BREAKING, ids=lambda c: c.id)
def test_gate_refuses_breaking_changes(clone, case):
    apply(clone, case)
    commit(clone, case.id)
    result = gate(clone)
    assert result.returncode != 0, f"{case.id} passed the gate:\n{output(result)}"
    assert findings(clone) == {(rule, element, "refused") for rule, element in case.found}, output(result)


@pytest.mark.parametrize("case", LINT_AND_FORMAT, ids=lambda c: c.id)
def test_gate_refuses_lint_and_format(clone, case):
    apply(clone, case)
    commit(clone, case.id)
    result = gate(clone)
    assert result.returncode != 0, f"{case.id} passed the gate:\n{output(result)}"
    assert case.rule in output(result), f"{case.id}: expected {case.rule}:\n{output(result)}"
    failed = {c["name"] for c in document(clone)["checks"] if not c["ok"]}
    assert failed == {"format" if case.rule == "not formatted" else "lint"}, failed


@pytest.mark.parametrize("case", SAFE + RULES_SAFE, ids=lambda c: c.id)
def test_gate_accepts(clone, case):
    apply(clone, case)
    commit(clone, case.id)
    result = gate(clone)
    assert result.returncode == 0, f"{case.id} was refused:\n{output(result)}"
    assert "governance gate passed" in output(result)
    assert findings(clone) == set()


def test_suite_is_large_enough():
    assert len(BREAKING) + len(LINT_AND_FORMAT) + len(SAFE) + len(RULES_BREAKING) + len(RULES_SAFE) >= 40


def test_uncommitted_breaking_edit_is_caught(clone):
    apply(clone, BREAKING[0])
    result = gate(clone)
    assert result.returncode != 0
    assert findings(clone) == {(rule, element, "refused") for rule, element in BREAKING[0].found}


def test_a_breaking_commit_made_on_main_is_compared_with_the_previous_commit(clone):
    # Directly on main, with everything pushed, there is no merge base to speak of: the gate
    # compares with the previous commit, never with the commit itself, and says so.
    git(clone, "checkout", "-q", "main")
    apply(clone, BREAKING[0])
    commit(clone, "breaking change straight on main")
    git(clone, "update-ref", "refs/remotes/origin/main", "HEAD")  # as if pushed
    result = gate(clone)
    assert result.returncode != 0, output(result)
    assert findings(clone) == {(rule, element, "refused") for rule, element in BREAKING[0].found}
    base = document(clone)["base"]
    assert base["commit"] == git(clone, "rev-parse", "HEAD~1").strip()
    assert base["why"] == "the previous commit (on main)"
    assert f"the base {base['commit'][:12]} (the previous commit (on main))" in output(result)


def test_unpushed_commits_on_main_are_compared_with_the_upstream(clone):
    git(clone, "checkout", "-q", "main")
    upstream = git(clone, "rev-parse", "origin/main").strip()
    apply(clone, BREAKING[0])
    commit(clone, "breaking")
    git(clone, "commit", "-q", "--allow-empty", "-m", "and another")
    result = gate(clone)
    assert result.returncode != 0, output(result)
    assert document(clone)["base"] == {"commit": upstream, "why": "the commits of main not yet on origin/main"}


def test_a_detached_head_is_compared_with_the_previous_commit(clone):
    apply(clone, BREAKING[0])
    commit(clone, "breaking")
    git(clone, "checkout", "-q", "--detach", "HEAD")
    result = gate(clone)
    assert result.returncode != 0, output(result)
    assert document(clone)["base"]["why"] == "the previous commit (on a detached HEAD)"


def test_base_ref_overrides_the_base(clone):
    # CI passes a pull request's base commit, or a push's previous commit.
    apply(clone, BREAKING[0])
    commit(clone, "breaking")
    git(clone, "commit", "-q", "--allow-empty", "-m", "nothing")
    assert gate(clone, BASE_REF="HEAD~1").returncode == 0
    result = gate(clone, BASE_REF="HEAD~2")
    assert result.returncode != 0
    assert document(clone)["base"]["why"] == "BASE_REF=HEAD~2"


def test_unknown_base_ref_is_a_clear_error(clone):
    result = gate(clone, BASE_REF="no-such-ref")
    assert result.returncode != 0
    assert "error: BASE_REF=no-such-ref is not a commit here (fetch it first)" in output(result)


def test_versions_gate_passes_on_the_tree(clone):
    result = run(clone, "versions", "check")
    assert result.returncode == 0, output(result)


def test_versions_gate_catches_a_pin_edited_by_hand(clone):
    # A pin outside gen/, which the drift gate does not regenerate: a service's runtime and a
    # workflow's Python, each edited in one file only.
    pom = clone / "services/person-spring/pom.xml"
    pom.write_text(pom.read_text().replace("<mapstruct.version>", "<mapstruct.version>9", 1))
    workflow = clone / ".github/workflows/ci.yml"
    workflow.write_text(workflow.read_text().replace("python-version: '", "python-version: '9", 1))
    commit(clone, "two pins bumped by hand")
    result = run(clone, "versions", "check")
    assert result.returncode != 0
    assert "services/person-spring/pom.xml: 91" in output(result)
    assert "MAPSTRUCT_VERSION=" in output(result)
    assert ".github/workflows/ci.yml: 93" in output(result)
    assert "PYTHON_VERSION=" in output(result)
    # The whole gate fails on it too, and names the check.
    result = run(clone, "check", "--only", "versions")
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
    assert findings(clone) == {("VALIDATE_MIN_LEN_LOOSENED", "acme.auth.v1.User.username", "refused")}
    f = finding(clone, "VALIDATE_MIN_LEN_LOOSENED", "acme.auth.v1.User.username")
    assert f["file"] == "acme/auth/v1/user.proto" and f["source"] == "validate"
    assert "on a message sent by servers; breaks clients that validate answers" in f["message"]


def test_rule_findings_point_at_the_field(clone):
    apply(clone, RULES_BREAKING[0])
    commit(clone, RULES_BREAKING[0].id)
    result = gate(clone)
    f = finding(clone, "VALIDATE_MAX_LEN_TIGHTENED", "acme.person.v1.Person.name")
    text = (clone / "proto" / f["file"]).read_text().splitlines()[f["line"] - 1]
    assert f["file"] == "acme/person/v1/person.proto"
    assert text[f["column"] - 1:].startswith("string name = 2"), text
    assert "(200 → 100)" in f["message"]
    assert f"{f['file']}:{f['line']}:{f['column']}:VALIDATE_MAX_LEN_TIGHTENED " in output(result)


def test_buf_breaking_with_the_repository_buf_yaml_lists_and_runs_the_plugin(clone):
    # The VALIDATE_… rules run inside buf itself, for anyone who runs buf breaking here.
    listed = subprocess_buf(clone, "config", "ls-breaking-rules")
    assert "VALIDATE_MAX_LEN_TIGHTENED" in listed.stdout and "FIELD_SAME_TYPE" in listed.stdout, listed.stderr
    against = run(clone, "image", "main").stdout.strip()  # main's contracts, compiled
    apply(clone, RULES_BREAKING[0])
    broke = subprocess_buf(clone, "breaking", "proto", "--against", against, "--error-format=msvs")
    assert broke.returncode == 100, broke.stdout + broke.stderr
    assert "acme/person/v1/person.proto(40,3) : error VALIDATE_MAX_LEN_TIGHTENED : acme.person.v1.Person.name" in broke.stdout


def subprocess_buf(repo, *args):
    import subprocess
    return subprocess.run(["bash", "-c", 'source scripts/lib.sh && exec buf "$@"', "buf", *args],
                          cwd=repo, capture_output=True, text=True, timeout=300)


def test_the_findings_document_is_versioned_and_read_back(clone):
    apply(clone, RULES_BREAKING[0])
    commit(clone, RULES_BREAKING[0].id)
    gate(clone)
    doc = document(clone)
    assert doc["gate"] and len(doc["gate"]) == 64
    assert doc["version"]["bump"] == "breaking"
    assert [c["name"] for c in doc["checks"]] == ["lint", "format", "breaking"]
    # A document from another version of the gate is refused, not misread.
    path = clone.parent / "gate-out" / "findings.json"
    path.write_text(path.read_text().replace('"acme.gate.findings/v1"', '"acme.gate.findings/v2"'))
    result = run(clone, "release", "accepted-breaks")
    assert result.returncode != 0
    assert "is acme.gate.findings/v2, from another gate; this gate reads acme.gate.findings/v1" in output(result)
    assert len(output(result).strip().splitlines()) == 1, output(result)


def test_a_schema_that_does_not_compile_fails_closed(clone):
    person = clone / PERSON
    person.write_text(person.read_text().replace("message Person {", "message Person {\n  NoSuchType broken = 99;", 1))
    commit(clone, "does not compile")
    result = gate(clone)
    assert result.returncode != 0
    breaking = next(c for c in document(clone)["checks"] if c["name"] == "breaking")
    assert not breaking["ok"] and "does not compile" in breaking["detail"] and "NoSuchType" in breaking["detail"]
