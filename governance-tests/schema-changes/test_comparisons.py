"""How the breaking check chooses what to compare, and what it remembers (gate/compare).

Against the base and against every release, only the files changed since the other side are
compared, with every file that imports one of them; each comparison's findings are remembered
for the same two images.
"""

import pathlib

from conftest import LONG_AGO, age, git
from edits import PERSON, PERSON_SVC
from gate import commit, document, findings, output, run

ROLE_FIELD = ("message RegisterPersonResponse {\n",
              "message RegisterPersonResponse {\n  // registered_by is the role of who registered it.\n"
              "  auth.v1.Role registered_by = 2;\n")
AUTH_IMPORT = ('import "acme/person/v1/person.proto";\n',
               'import "acme/auth/v1/user.proto";\nimport "acme/person/v1/person.proto";\n')
# In package acme.person.v1 a reference to `auth.v1.Role` looks for `auth` in the innermost
# scope first: once person.proto (imported by person_service.proto) defines one, the field's
# type silently becomes acme.person.v1.auth.v1.Role, although person_service.proto is unchanged.
SHADOW = "\n// auth shadows the package acme.auth for references from acme.person.v1.\nmessage auth {\n  message v1 {\n    message Role {}\n  }\n}\n"
# The field's type is now a message where it was an enum: buf sees a new type and a new
# presence.
SHADOWED = {("FIELD_SAME_TYPE", "acme.person.v1.RegisterPersonResponse.registered_by", "refused"),
            ("FIELD_SAME_CARDINALITY", "acme.person.v1.RegisterPersonResponse.registered_by", "refused")}


def edit(repo: pathlib.Path, rel: str, old: str, new: str) -> None:
    path = repo / rel
    text = path.read_text()
    assert text.count(old) == 1, (rel, old)
    path.write_text(text.replace(old, new))


def field_typed_by_another_package(repo: pathlib.Path) -> None:
    """main gains a field whose type lives in acme.auth.v1; the branch then shadows that name
    from person.proto alone."""
    git(repo, "checkout", "-q", "main")
    edit(repo, PERSON_SVC, *AUTH_IMPORT)
    edit(repo, PERSON_SVC, *ROLE_FIELD)
    commit(repo, "a field typed by acme.auth.v1.Role")
    git(repo, "tag", "-a", "v0.1.0", "-m", "Release v0.1.0")
    git(repo, "checkout", "-q", "-b", "shadow")
    (repo / PERSON).write_text((repo / PERSON).read_text() + SHADOW)
    commit(repo, "a message named auth in person.proto")


def test_a_type_shadowed_from_an_imported_file_is_caught_in_the_unchanged_file(clone):
    field_typed_by_another_package(clone)
    for args, breaks in ((("breaking",), ["base", "v0.1.0"]), (("breaking", "--releases-only"), ["v0.1.0"])):
        result = run(clone, *args)
        assert result.returncode != 0, (args, output(result))
        assert findings(clone) == SHADOWED, (args, output(result))
        assert [f["breaks"] for f in document(clone)["findings"]] == [breaks, breaks]
        assert {f["file"] for f in document(clone)["findings"]} == {"acme/person/v1/person_service.proto"}


def test_a_second_run_on_the_same_tree_compares_nothing_again(clone, tmp_path):
    field_typed_by_another_package(clone)
    cache = tmp_path / "cache"  # this test's own: no other run's findings in it
    first = run(clone, "breaking", "--releases-only", GATE_CACHE=str(cache))
    assert "1 comparisons: 1 compared now" in output(first), output(first)
    entries = list((cache / "comparison").iterdir())
    age(*entries)
    second = run(clone, "breaking", "--releases-only", GATE_CACHE=str(cache))
    assert "1 comparisons: 1 remembered from an earlier run" in output(second), output(second)
    assert all(e.stat().st_mtime > LONG_AGO for e in entries)  # touched as used
    # Remembered findings are still findings.
    assert second.returncode != 0 and findings(clone) == SHADOWED, output(second)
    # Any edit is a new tree: compared again, and judged on what it is now.
    edit(clone, PERSON, SHADOW, "\n")
    third = run(clone, "breaking", "--releases-only", GATE_CACHE=str(cache))
    assert "1 comparisons: 1 compared now" in output(third), output(third)
    assert third.returncode == 0 and findings(clone) == set(), output(third)


def test_nothing_changed_since_the_other_side_compares_nothing(clone):
    result = run(clone, "breaking")
    assert result.returncode == 0, output(result)
    assert "1 comparisons: 1 nothing changed since" in output(result)
