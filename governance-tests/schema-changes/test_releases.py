"""The gate against every release (gate/releases, gate/compare), not only the base.

Each case builds a release history on main the way `make release` leaves it — annotated v* tags,
a breaking release's tag with one "Accepted-Break: RULE ELEMENT" line per break it accepted —
then commits a change on a branch and runs the real gate. The history: v0.1.0 adds
Person.nickname (7); v0.2.0 deletes it, accepting FIELD_NO_DELETE on Person.nickname with a reason.
"""

import pathlib

from conftest import LONG_AGO, age, git
from edits import PERSON
from gate import commit, document, finding, findings, gate, output, run

PERSON_END = "  google.protobuf.Timestamp created_at = 6;\n}"
NICKNAME = "  // nickname is what the person's friends call them.\n  string nickname = 7;\n"
REUSED = "  // nickname_count counts the nicknames the person has had.\n  int64 nickname_count = 7;\n"
HARMLESS = "  // email is where the person reads mail.\n  string email = 8;\n"


def add_to_person(repo: pathlib.Path, field: str) -> None:
    path = repo / PERSON
    text = path.read_text()
    assert text.count(PERSON_END) == 1
    path.write_text(text.replace(PERSON_END, PERSON_END[:-1] + field + "}"))


def remove_from_person(repo: pathlib.Path, field: str) -> None:
    path = repo / PERSON
    path.write_text(path.read_text().replace(field, ""))


def release(repo: pathlib.Path, tag: str, *accepted: str) -> None:
    message = f"Release {tag}\n\n" + "".join(f"Accepted-Break: {a}\n" for a in accepted)
    git(repo, "tag", "-a", tag, "-m", message)


def history(repo: pathlib.Path, deletion_accepted: bool = True) -> None:
    git(repo, "checkout", "-q", "main")
    add_to_person(repo, NICKNAME)
    commit(repo, "add nickname")
    release(repo, "v0.1.0")
    remove_from_person(repo, NICKNAME)
    commit(repo, "delete nickname")
    release(repo, "v0.2.0", *(["FIELD_NO_DELETE acme.person.v1.Person.nickname"] if deletion_accepted else []))
    git(repo, "checkout", "-q", "-b", "next")


def test_a_number_reused_after_an_accepted_deletion_breaks_the_earlier_release(clone):
    history(clone)
    add_to_person(clone, REUSED)
    commit(clone, "reuse 7 with another type")
    result = gate(clone)
    assert result.returncode != 0, output(result)
    # Against the base (= v0.2.0) this is an addition: only the check against every release
    # sees that v0.1.0's clients send a string as field 7.
    # v0.2.0 accepted the deletion of nickname (7); that waives the deletion, not a reuse.
    assert findings(clone) == {(rule, "acme.person.v1.Person.nickname_count", "refused")
                               for rule in ("FIELD_SAME_TYPE", "FIELD_SAME_NAME", "FIELD_SAME_JSON_NAME")}, output(result)
    reused = finding(clone, "FIELD_SAME_TYPE", "acme.person.v1.Person.nickname_count")
    assert reused["breaks"] == ["v0.1.0"] and reused["refused_for"] == ["v0.1.0"]
    assert "[acme.person.v1.Person.nickname_count] — breaks v0.1.0 — refused: it breaks the clients of v0.1.0" in output(result)
    assert [r["tag"] for r in document(clone)["releases"]] == ["v0.2.0", "v0.1.0"]
    assert document(clone)["releases"][0]["accepted_breaks"] == [{"rule": "FIELD_NO_DELETE", "element": "acme.person.v1.Person.nickname"}]


def test_an_accepted_break_waives_exactly_itself(clone):
    history(clone)
    add_to_person(clone, HARMLESS)
    commit(clone, "a new field with a new number")
    result = gate(clone)
    assert result.returncode == 0, output(result)
    assert findings(clone) == {("FIELD_NO_DELETE", "acme.person.v1.Person.nickname", "waived")}
    waived = finding(clone, "FIELD_NO_DELETE", "acme.person.v1.Person.nickname")
    assert waived["breaks"] == ["v0.1.0"] and waived["waived_by"] == "v0.2.0"
    assert "[acme.person.v1.Person.nickname] — breaks v0.1.0 — waived: v0.2.0 accepted this break" in output(result)


def test_a_break_no_release_accepted_still_counts(clone):
    history(clone, deletion_accepted=False)
    add_to_person(clone, HARMLESS)
    commit(clone, "a new field with a new number")
    result = gate(clone)
    assert result.returncode != 0, output(result)
    assert findings(clone) == {("FIELD_NO_DELETE", "acme.person.v1.Person.nickname", "refused")}
    assert finding(clone, "FIELD_NO_DELETE", "acme.person.v1.Person.nickname")["refused_for"] == ["v0.1.0"]


def test_a_release_is_compiled_once_and_then_read_from_the_cache(clone, tmp_path):
    history(clone)
    cache = tmp_path / "cache"
    # The branch is v0.2.0 itself: only v0.1.0 differs, so only its image is needed.
    assert run(clone, "breaking", "--releases-only", GATE_CACHE=str(cache)).returncode == 0
    [first] = (cache / "image").glob("*.binpb")
    # A compile writes a new file and moves it in: the same inode and bytes mean it was read.
    kept = (first.stat().st_ino, first.read_bytes())
    age(first)
    # Another tree, so every comparison is made again and needs both images.
    add_to_person(clone, HARMLESS)
    assert run(clone, "breaking", "--releases-only", GATE_CACHE=str(cache)).returncode == 0
    assert len(list((cache / "image").glob("*.binpb"))) == 2
    assert (first.stat().st_ino, first.read_bytes()) == kept
    # Touched as used, so CI's clean-up (pull-request.yml) forgets only what went unused.
    assert first.stat().st_mtime > LONG_AGO


def test_without_a_release_there_is_nothing_to_compare_with(clone):
    result = run(clone, "breaking", "--releases-only")
    assert result.returncode == 0, output(result)
    assert "no base and no release yet" in output(result)
    assert document(clone)["releases"] == []


def test_a_file_deleted_since_a_release_is_judged_on_the_whole_tree(clone):
    # The check compares only the files changed since each release; a deleted file cannot be
    # named to buf, so then the whole tree is compared and the deletion is found.
    git(clone, "checkout", "-q", "main")
    extra = clone / "proto/acme/person/v1/extra.proto"
    extra.write_text('syntax = "proto3";\n\npackage acme.person.v1;\n\noption java_multiple_files = true;\n'
                     'option java_package = "com.acme.person.v1";\n\n// Extra is extra.\nmessage Extra {\n'
                     '  // name names it.\n  string name = 1;\n}\n')
    commit(clone, "extra file")
    release(clone, "v0.1.0")
    git(clone, "checkout", "-q", "-b", "next")
    extra.unlink()
    commit(clone, "extra file deleted")
    result = run(clone, "breaking", "--releases-only")
    assert result.returncode != 0, output(result)
    assert findings(clone) == {("FILE_NO_DELETE", "acme/person/v1/extra.proto", "refused")}
    assert "— breaks v0.1.0 — refused: it breaks the clients of v0.1.0" in output(result)
