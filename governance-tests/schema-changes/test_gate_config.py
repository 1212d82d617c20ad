"""An edit of buf.yaml: the file that says which files are the contracts and which changes break
them. The gate judges a change with the working tree's buf.yaml, so a change that edits it edits
its own judge; an edit since the base (or a release) is a finding of its own, refused unless an
exception accepts it, and the side is compared whole. Each case would let a breaking change
through without it."""

import pytest

from edits import RULES_BREAKING, Case, Replace
from gate import commit, document, findings, gate, output
from test_exceptions import NEXT_YEAR, entry, with_exceptions
from test_schema_changes import apply

BUF_YAML = "buf.yaml"
CONFIG = ("BUF_CONFIG_CHANGED", "buf.yaml")
TIGHTENED = RULES_BREAKING[0]  # Person.name max_len 200 -> 100: a VALIDATE_… finding

NO_VALIDATE = Replace(BUF_YAML, "    - FILE\n    - VALIDATE\n", "    - FILE\n")
EXCEPT = Replace(BUF_YAML, "    - FILE\n    - VALIDATE\n", "    - FILE\n    - VALIDATE\n  except:\n    - VALIDATE_MAX_LEN_TIGHTENED\n")
NO_AUTH = Replace(BUF_YAML, "  - path: proto\n", "  - path: proto\n    excludes: [proto/acme/auth]\n")


@pytest.mark.parametrize("config, line", [
    (NO_VALIDATE, "breaking.use: [FILE, VALIDATE] → [FILE]"),
    (EXCEPT, "breaking.except: (none) → [VALIDATE_MAX_LEN_TIGHTENED]"),
], ids=["rule-dropped", "rule-excepted"])
def test_a_rule_taken_out_of_buf_yaml_does_not_let_its_break_through(clone, config, line):
    apply(clone, Case("tightened, judged by a weaker buf.yaml", TIGHTENED.edits + (config,)))
    commit(clone, "max_len tightened; the rule that refuses it taken out")
    result = gate(clone)
    assert result.returncode != 0, output(result)
    assert findings(clone) == {(*CONFIG, "refused")}, output(result)
    assert line in output(result)
    assert "(0 by buf, 0 in validation rules, 1 edit of buf.yaml)" in output(result)


def test_a_package_excluded_by_buf_yaml_is_compared_and_its_loss_is_a_major_version(clone):
    # No .proto changed: before, every comparison was skipped and the version plan called the
    # lost package a patch.
    apply(clone, Case("auth excluded", (NO_AUTH,)))
    commit(clone, "auth left out of the contracts")
    result = gate(clone)
    assert result.returncode != 0, output(result)
    assert findings(clone) == {(*CONFIG, "refused"),
                               ("FILE_NO_DELETE", "acme/auth/v1/auth_service.proto", "refused"),
                               ("FILE_NO_DELETE", "acme/auth/v1/user.proto", "refused")}, output(result)
    assert "modules[path: proto].excludes: (none) → [proto/acme/auth]" in output(result)
    assert document(clone)["version"]["bump"] == "breaking"


def test_an_edit_of_buf_yaml_passes_with_a_reviewed_exception(clone):
    apply(clone, Case("tightened, with VALIDATE dropped", TIGHTENED.edits + (NO_VALIDATE,)))
    with_exceptions(clone, entry(element="buf.yaml", rule="BUF_CONFIG_CHANGED",
                                 reason="VALIDATE moves to its own job (ACME-7)"))
    commit(clone, "VALIDATE dropped, accepted")
    result = gate(clone)
    assert result.returncode == 0, output(result)
    assert findings(clone) == {(*CONFIG, "accepted")}
    assert f"accepted by exception until {NEXT_YEAR}: VALIDATE moves to its own job" in output(result)
    # buf.yaml alone changes no SDK: the tightened rule is a patch here, as VALIDATE is off.
    assert document(clone)["version"]["bump"] == "patch"


def test_comments_and_layout_of_buf_yaml_are_no_edit(clone):
    text = (clone / BUF_YAML).read_text()
    (clone / BUF_YAML).write_text("# reviewed 2026-11\n" + text.replace("  use:\n    - FILE\n    - VALIDATE\n", "  use: [FILE, VALIDATE]\n"))
    commit(clone, "buf.yaml: a comment, flow style")
    result = gate(clone)
    assert result.returncode == 0, output(result)
    assert findings(clone) == set()
