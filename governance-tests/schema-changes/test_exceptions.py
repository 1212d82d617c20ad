"""Per-element exceptions (proto/breaking-exceptions.yaml) and the gate's report: an exception
accepts exactly one element and one rule until it expires; anything else in the file fails the
gate with a line naming the entry; the report says what was found, accepted and refused, and
what the change means for the version."""

import datetime
import json

import pytest

from edits import PERSON_SVC, RULES_BREAKING, Case, Replace
from gate import commit, document, finding, findings, gate, out_dir, output, run
from test_schema_changes import apply

EXCEPTIONS = "proto/breaking-exceptions.yaml"
TIGHTENED = RULES_BREAKING[0]  # Person.name max_len 200 -> 100
ELEMENT, RULE = "acme.person.v1.Person.name", "VALIDATE_MAX_LEN_TIGHTENED"
NEXT_YEAR = (datetime.date.today() + datetime.timedelta(days=365)).isoformat()


def entry(element=ELEMENT, rule=RULE, expires=NEXT_YEAR, reason="clients cut names at 100 since 2026-10",
          review="https://github.com/acme/contracts/pull/123", **extra) -> dict:
    return {"element": element, "rule": rule, "reason": reason, "expires": expires, "review": review, **extra}


def with_exceptions(clone, *entries, text: str | None = None) -> None:
    body = text if text is not None else "exceptions:\n" + "".join(
        "  - " + json.dumps(e, ensure_ascii=False) + "\n" for e in entries)
    (clone / EXCEPTIONS).write_text(body)


def tightened_with(clone, *entries, text=None):
    apply(clone, TIGHTENED)
    with_exceptions(clone, *entries, text=text)
    commit(clone, "max_len tightened, with exceptions")
    return gate(clone)


def test_an_exact_unexpired_exception_accepts_the_finding_and_is_printed(clone):
    result = tightened_with(clone, entry())
    assert result.returncode == 0, output(result)
    assert findings(clone) == {(RULE, ELEMENT, "accepted")}
    assert finding(clone, RULE, ELEMENT)["exception"]["entry"] == 1
    assert f"[{ELEMENT}] — breaks the base " in output(result)
    assert f" — accepted by exception until {NEXT_YEAR}: clients cut names at 100" in output(result)
    assert [e["element"] for e in document(clone)["exceptions"]["used"]] == [ELEMENT]
    assert "version: breaking: the next major version" in output(result)


@pytest.mark.parametrize("wrong", [{"rule": "VALIDATE_MIN_LEN_TIGHTENED"}, {"element": "acme.person.v1.Person.age"}],
                         ids=["another-rule", "another-element"])
def test_an_exception_for_something_else_accepts_nothing(clone, wrong):
    result = tightened_with(clone, entry(**wrong))
    assert result.returncode != 0
    assert findings(clone) == {(RULE, ELEMENT, "refused")}
    assert document(clone)["exceptions"]["problems"] == [
        f"{EXCEPTIONS}: entry 1 ({entry(**wrong)['element']}, {entry(**wrong)['rule']}) matches no finding any more: delete it"]


def test_an_expired_exception_fails_the_gate(clone):
    result = tightened_with(clone, entry(expires="2026-01-31"))
    assert result.returncode != 0
    assert f"entry 1 ({ELEMENT}, {RULE}) expired on 2026-01-31" in output(result)
    assert findings(clone) == {(RULE, ELEMENT, "refused")}


def test_an_unused_exception_fails_the_gate_so_the_file_cleans_itself(clone):
    with_exceptions(clone, entry())
    commit(clone, "an exception for a change that never came")
    result = gate(clone)
    assert result.returncode != 0
    assert findings(clone) == set()
    assert document(clone)["exceptions"]["problems"] == [
        f"{EXCEPTIONS}: entry 1 ({ELEMENT}, {RULE}) matches no finding any more: delete it"]


@pytest.mark.parametrize("text, says", [
    ("exceptions: [", "not YAML"),
    ("- just a list\n", "must be a mapping with one key, exceptions"),
    ("exceptions:\n  - element: acme.person.v1.Person.name\n", "entry 1 (acme.person.v1.Person.name, ?): missing expires, reason, review, rule"),
    (None, "unknown approved_by"),
    ("exceptions:\n  - " + json.dumps(entry(expires="next spring")) + "\n", 'expires must be a date (YYYY-MM-DD), not "next spring"'),
    ("exceptions: []\napproved: yes\n", 'unknown key "approved"'),
    ("exceptions:\n  - " + json.dumps(entry(rule="FIELD_SAME_TYPO")) + "\n", 'unknown rule "FIELD_SAME_TYPO"'),
    ("exceptions:\n  - " + json.dumps(entry(element="acme.person.v1.Persn.name")) + "\n", 'no element "acme.person.v1.Persn.name"'),
    ("exceptions:\n  - " + json.dumps(entry(review="see chat")) + "\n", "needs a reason and a review link"),
], ids=["not-yaml", "not-a-mapping", "missing-keys", "unknown-key", "bad-date", "unknown-file-key", "unknown-rule", "unknown-element", "no-review"])
def test_a_malformed_exceptions_file_fails_closed_naming_the_entry(clone, text, says):
    if text is None:
        text = "exceptions:\n  - " + json.dumps(entry(approved_by="me")) + "\n"
    result = tightened_with(clone, text=text)
    assert result.returncode != 0
    lines = [l for l in output(result).splitlines() if says in l]
    assert lines and lines[0].startswith(f"exceptions file: {EXCEPTIONS}"), output(result)
    # Nothing is accepted by a file the gate cannot trust.
    assert findings(clone) == {(RULE, ELEMENT, "refused")}


def test_a_buf_finding_is_pinned_to_its_element_and_can_be_excepted(clone):
    apply(clone, Case("type", (Replace(PERSON_SVC, "int64 count = 1;", "int32 count = 1;"),)))
    with_exceptions(clone, entry(element="acme.person.v1.RegisterPeopleResponse.count", rule="FIELD_SAME_TYPE"))
    commit(clone, "count is an int32 now")
    result = gate(clone)
    assert result.returncode == 0, output(result)
    assert findings(clone) == {("FIELD_SAME_TYPE", "acme.person.v1.RegisterPeopleResponse.count", "accepted")}


def test_an_exception_for_a_deleted_field_accepts_that_field_and_no_other(clone):
    # buf reports a deleted field at its message; pinned there, an exception for one deletion
    # would accept deleting every field of the message, now and until it expires.
    deleted = "acme.person.v1.RegisterPeopleResponse.ids_omitted"
    apply(clone, Case("deleted", (Replace(PERSON_SVC, "  bool ids_omitted = 3;\n", ""),)))
    with_exceptions(clone, entry(element=deleted, rule="FIELD_NO_DELETE"))
    commit(clone, "ids_omitted deleted, with an exception")
    result = gate(clone)
    assert result.returncode == 0, output(result)
    assert findings(clone) == {("FIELD_NO_DELETE", deleted, "accepted")}

    apply(clone, Case("another", (Replace(PERSON_SVC, "int64 count = 1;", "reserved 1;"),)))
    commit(clone, "count deleted too, under the same exception")
    result = gate(clone)
    assert result.returncode != 0, output(result)
    assert findings(clone) == {("FIELD_NO_DELETE", deleted, "accepted"),
                               ("FIELD_NO_DELETE", "acme.person.v1.RegisterPeopleResponse.count", "refused")}


def test_a_type_change_accepted_by_exception_with_the_same_bounds_raises_no_rule_finding(clone):
    # int32 -> int64 with the very same bounds moved from int32 rules to int64 rules: the
    # exception accepts the type change, and the rules, compared by the values they accept,
    # did not change at all.
    apply(clone, Case("int64", (Replace(PERSON_SVC, "optional int32 min_age = 2 [(buf.validate.field).int32 = {",
                                        "optional int64 min_age = 2 [(buf.validate.field).int64 = {"),)))
    with_exceptions(clone, entry(element="acme.person.v1.ListPeopleRequest.min_age", rule="FIELD_SAME_TYPE"))
    commit(clone, "min_age is an int64")
    result = gate(clone)
    assert result.returncode == 0, output(result)
    assert findings(clone) == {("FIELD_SAME_TYPE", "acme.person.v1.ListPeopleRequest.min_age", "accepted")}


def test_the_report_for_a_pull_request(clone):
    result = tightened_with(clone, entry())
    markdown = (out_dir(clone) / "report.md").read_text()
    assert markdown.startswith("<!-- contracts-gate-report -->")
    assert f"| `{RULE}` | 1 |" in markdown
    assert "### Accepted by exception" in markdown
    # This branch edited the exceptions file: the gate's Markdown lists the added entry.
    assert "### Exceptions changed by this pull request" in markdown and f"+ {ELEMENT} {RULE}" in markdown
    assert "**Version this change implies:** breaking" in markdown

    annotated = run(clone, "breaking", GITHUB_ACTIONS="true")
    assert f"::notice file=proto/acme/person/v1/person.proto,line=" in output(annotated)
    with_exceptions(clone)
    annotated = run(clone, "breaking", GITHUB_ACTIONS="true")
    assert annotated.returncode != 0
    assert f"::error file=proto/acme/person/v1/person.proto,line=40,col=3::{RULE}: " in output(annotated)


@pytest.mark.parametrize("edit, bump", [
    (Replace("proto/acme/person/v1/person.proto", "// age is the age in whole years", "// age is the person's age in whole years"),
     "comments or options only: the next patch version"),
    (Replace("proto/acme/person/v1/person.proto", "  google.protobuf.Timestamp created_at = 6;\n",
             "  google.protobuf.Timestamp created_at = 6;\n  // nickname is what friends call the person.\n  string nickname = 7;\n"),
     "additions: the next minor version"),
], ids=["comment", "field-added"])
def test_the_report_says_which_version_a_safe_change_implies(clone, edit, bump):
    apply(clone, Case("safe", (edit,)))
    commit(clone, "safe")
    result = gate(clone)
    assert result.returncode == 0, output(result)
    assert f"version: {bump}" in output(result)
