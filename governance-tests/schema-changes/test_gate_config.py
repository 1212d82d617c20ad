"""An edit of buf.yaml: the file that says which files are the contracts and which changes break
them. The gate judges a change with the working tree's buf.yaml, so a change that edits it edits
its own judge; each setting it changed since the base is a finding of its own, refused unless an
exception names that setting and its new value, and the base is compared whole. Each case
would let a breaking change through without it."""

import pytest

from conftest import git
from edits import RULES_BREAKING, Case, Replace
from gate import commit, document, findings, gate, output, run
from test_exceptions import NEXT_YEAR, entry, with_exceptions
from test_schema_changes import apply

BUF_YAML = "buf.yaml"
RULE = "BUF_CONFIG_CHANGED"
TIGHTENED = RULES_BREAKING[0]  # Person.name max_len 200 -> 100: a VALIDATE_… finding

NO_VALIDATE = Replace(BUF_YAML, "    - FILE\n    - VALIDATE\n", "    - FILE\n")
EXCEPT = Replace(BUF_YAML, "    - FILE\n    - VALIDATE\n", "    - FILE\n    - VALIDATE\n  except:\n    - VALIDATE_MAX_LEN_TIGHTENED\n")
NO_AUTH = Replace(BUF_YAML, "  - path: proto\n", "  - path: proto\n    excludes: [proto/acme/auth]\n")
NO_FILE_NO_DELETE = Replace(BUF_YAML, "    - FILE\n    - VALIDATE\n", "    - FILE\n    - VALIDATE\n  except:\n    - FILE_NO_DELETE\n")
LINT = Replace(BUF_YAML, "    - COMMENTS\n", "    - COMMENTS\n  except:\n    - COMMENT_FIELD\n")


@pytest.mark.parametrize("config, element, line", [
    (NO_VALIDATE, "buf.yaml:breaking.use=[FILE]", "breaking.use: [FILE, VALIDATE] → [FILE]"),
    (EXCEPT, "buf.yaml:breaking.except=[VALIDATE_MAX_LEN_TIGHTENED]", "breaking.except: (none) → [VALIDATE_MAX_LEN_TIGHTENED]"),
], ids=["rule-dropped", "rule-excepted"])
def test_a_rule_taken_out_of_buf_yaml_does_not_let_its_break_through(clone, config, element, line):
    apply(clone, Case("tightened, judged by a weaker buf.yaml", TIGHTENED.edits + (config,)))
    commit(clone, "max_len tightened; the rule that refuses it taken out")
    result = gate(clone)
    assert result.returncode != 0, output(result)
    assert findings(clone) == {(RULE, element, "refused")}, output(result)
    assert line in output(result)
    assert "(0 by buf, 0 in validation rules, 1 in buf.yaml's settings)" in output(result)


def test_a_package_excluded_by_buf_yaml_is_compared_and_its_loss_is_a_major_version(clone):
    # No .proto changed: before, every comparison was skipped and the version plan called the
    # lost package a patch.
    apply(clone, Case("auth excluded", (NO_AUTH,)))
    commit(clone, "auth left out of the contracts")
    result = gate(clone)
    assert result.returncode != 0, output(result)
    assert findings(clone) == {(RULE, "buf.yaml:modules[path: proto].excludes=[proto/acme/auth]", "refused"),
                               ("FILE_NO_DELETE", "acme/auth/v1/auth_service.proto", "refused"),
                               ("FILE_NO_DELETE", "acme/auth/v1/user.proto", "refused")}, output(result)
    assert document(clone)["version"]["bump"] == "breaking"


def test_an_edit_of_buf_yaml_passes_with_a_reviewed_exception_and_the_version_still_counts_the_loss(clone):
    # Both settings accepted: the package is left out and its deletion not reported. The SDKs
    # still lose it, so the version is still a major one.
    apply(clone, Case("auth excluded, its deletion excepted", (NO_AUTH, NO_FILE_NO_DELETE)))
    excluded, excepted = ("buf.yaml:modules[path: proto].excludes=[proto/acme/auth]", "buf.yaml:breaking.except=[FILE_NO_DELETE]")
    with_exceptions(clone, *(entry(element=e, rule=RULE, reason="auth moves to its own repository (ACME-7)") for e in (excluded, excepted)))
    commit(clone, "auth moves out, accepted")
    result = gate(clone)
    assert result.returncode == 0, output(result)
    assert findings(clone) == {(RULE, excluded, "accepted"), (RULE, excepted, "accepted")}
    assert f"accepted by exception until {NEXT_YEAR}: auth moves to its own repository" in output(result)
    assert document(clone)["version"]["bump"] == "breaking"
    assert "acme.auth.v1.AuthService" in document(clone)["version"]["removed"]


def test_an_exception_for_one_edit_accepts_no_later_edit(clone):
    # A lint setting accepted and merged; the next change drops VALIDATE beside a tightened rule
    # and leaves the exceptions file as it was.
    git(clone, "checkout", "-q", "main")
    apply(clone, Case("lint eased", (LINT,)))
    with_exceptions(clone, entry(element="buf.yaml:lint.except=[COMMENT_FIELD]", rule=RULE, reason="field comments optional (ACME-8)"))
    commit(clone, "lint: field comments optional, accepted")
    git(clone, "checkout", "-q", "-b", "next")
    apply(clone, Case("tightened, VALIDATE dropped", TIGHTENED.edits + (NO_VALIDATE,)))
    commit(clone, "max_len tightened; VALIDATE dropped")
    result = gate(clone)
    assert result.returncode != 0, output(result)
    assert findings(clone) == {(RULE, "buf.yaml:breaking.use=[FILE]", "refused")}, output(result)
    assert "entry 1 (buf.yaml:lint.except=[COMMENT_FIELD], BUF_CONFIG_CHANGED) matches no finding any more" in output(result)


def test_a_buf_yaml_under_proto_is_refused(clone):
    # buf builds the contracts from proto/ and reads a buf.yaml there first: it would decide what
    # the contracts are while the gate compares only the root's.
    (clone / "proto/buf.yaml").write_text("version: v2\nmodules:\n  - path: .\n    excludes: [acme/auth]\n")
    commit(clone, "a buf.yaml of proto/'s own")
    result = gate(clone)
    assert result.returncode != 0, output(result)
    assert "proto/buf.yaml: the contracts are configured by the root buf.yaml only" in output(result)
    # It would choose the lint rules too.
    linted = run(clone, "check", "--only", "lint")
    assert linted.returncode != 0 and "proto/buf.yaml: the contracts are configured by the root" in output(linted), output(linted)


def test_comments_and_layout_of_buf_yaml_are_no_edit(clone):
    # The control: what the comparison must not count.
    text = (clone / BUF_YAML).read_text()
    (clone / BUF_YAML).write_text("# reviewed 2026-11\n" + text.replace("  use:\n    - FILE\n    - VALIDATE\n", "  use: [FILE, VALIDATE]\n"))
    commit(clone, "buf.yaml: a comment, flow style")
    result = gate(clone)
    assert result.returncode == 0, output(result)
    assert findings(clone) == set()


def test_a_release_after_an_accepted_edit_of_buf_yaml_is_no_breaking_one(clone):
    # Judged with its exception when it reached main, whose next change deleted the used-up
    # entry: the release plan compares with the latest release, where buf.yaml differs, and must
    # neither refuse it again nor call it a break of that release's clients.
    git(clone, "checkout", "-q", "main")
    git(clone, "tag", "-a", "v0.1.0", "-m", "Release v0.1.0")
    apply(clone, Case("lint eased", (LINT,)))
    with_exceptions(clone, entry(element="buf.yaml:lint.except=[COMMENT_FIELD]", rule=RULE, reason="field comments optional (ACME-8)"))
    commit(clone, "lint: field comments optional, accepted")
    with_exceptions(clone)
    commit(clone, "the used-up entry deleted")
    result = run(clone, "release", "plan")
    assert result.returncode == 0, output(result)
    assert "kind=none\n" in result.stdout and "breaks=\n" in result.stdout, output(result)
    assert findings(clone) == set()
