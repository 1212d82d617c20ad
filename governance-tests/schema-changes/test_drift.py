"""The drift gate regenerates only what changed (gate/drift), and stays exact.

One tree of 60 .proto files (the contracts and 28 synthetic packages from make bench-gate's
generator), generated and committed; every case runs the real `gate drift` with a cache of
its own, so "regenerated N" is what this run did, not what an earlier test left behind. A case
that starts with every package remembered gets a copy of the cache one cold run on the tree
left (checked to have regenerated every unit), rather than regenerating all 31 units again.
"""

import pathlib
import shutil
import subprocess
import sys

import pytest

from conftest import LONG_AGO, age, git
from edits import ROOT
from gate import commit, output, run
from test_schema_changes import apply
from edits import SAFE

FILES = 60
TOUCHED = "acme/synth7/v1"


@pytest.fixture(scope="module")
def tree(template, tmp_path_factory) -> pathlib.Path:
    """The template grown to FILES files and regenerated, committed as main."""
    repo = tmp_path_factory.mktemp("drift") / "repo"
    subprocess.run(["git", "clone", "-q", str(template), str(repo)], check=True)
    for name in (".tmp", "node_modules"):
        (repo / name).symlink_to(ROOT / name, target_is_directory=True)
    subprocess.run([sys.executable, str(ROOT / "benchmarks/gate/synthetic.py"), "proto", str(FILES)],
                   cwd=repo, check=True, capture_output=True)
    assert run(repo, "gen").returncode == 0
    commit(repo, "a larger tree")
    return repo


@pytest.fixture
def work(tree, tmp_path) -> pathlib.Path:
    """A clone of the tree for one case."""
    repo = tmp_path / "repo"
    subprocess.run(["git", "clone", "-q", str(tree), str(repo)], check=True)
    for name in (".tmp", "node_modules"):
        (repo / name).symlink_to(ROOT / name, target_is_directory=True)
    return repo


@pytest.fixture(scope="module")
def remembered(tree, tmp_path_factory) -> pathlib.Path:
    """The cache a cold run on the tree leaves: every unit regenerated and remembered. Made once;
    a case that starts with every package remembered takes a copy of its own (warm)."""
    folder = tmp_path_factory.mktemp("remembered")
    repo = folder / "repo"
    subprocess.run(["git", "clone", "-q", str(tree), str(repo)], check=True)
    for name in (".tmp", "node_modules"):
        (repo / name).symlink_to(ROOT / name, target_is_directory=True)
    cold = drift(repo, folder / "cache")
    assert cold.returncode == 0, output(cold)
    assert "31 units, 0 from the cache, regenerated 31" in output(cold)
    return folder / "cache"


@pytest.fixture
def warm(remembered, tmp_path) -> pathlib.Path:
    """A case's own cache, as a cold run on the tree leaves it (a copy of remembered)."""
    cache = tmp_path / "cache"
    shutil.copytree(remembered, cache, symlinks=True)
    return cache


def drift(repo: pathlib.Path, cache: pathlib.Path) -> subprocess.CompletedProcess:
    return run(repo, "drift", GATE_CACHE=str(cache))


def touch_one_file(repo: pathlib.Path) -> pathlib.Path:
    path = repo / "proto" / TOUCHED / "item.proto"
    text = path.read_text()
    assert text.count("// tags label the record.") == 1
    path.write_text(text.replace("// tags label the record.", "// tags label the record, in any order."))
    return path


def test_a_cold_run_regenerates_every_unit_and_a_second_none(work, tmp_path):
    first = drift(work, tmp_path / "cache")
    assert first.returncode == 0, output(first)
    # 30 directories of ours, and the imported files (buf/validate, well-known types).
    assert "31 units, 0 from the cache, regenerated 31" in output(first)
    entries = list((tmp_path / "cache" / "drift").iterdir())
    assert len(entries) == 31
    age(*entries)
    second = drift(work, tmp_path / "cache")
    assert second.returncode == 0, output(second)
    assert "31 units, 31 from the cache, regenerated 0" in output(second)
    assert all(e.stat().st_mtime > LONG_AGO for e in entries)  # touched as used


def test_one_changed_file_regenerates_only_its_package_and_its_drift_is_caught(work, warm):
    touch_one_file(work)
    result = drift(work, warm)
    assert result.returncode != 0, output(result)
    assert f"30 from the cache, regenerated 1: {TOUCHED} " in output(result)
    changed = [line.split()[0] for line in output(result).splitlines() if line.startswith("  gen/")]
    assert changed and all("synth7" in path for path in changed), output(result)
    # Regenerated and committed, the tree is exact again — and nothing more is regenerated.
    assert run(work, "gen").returncode == 0
    commit(work, "regenerated")
    after = drift(work, warm)
    assert after.returncode == 0, output(after)
    assert "regenerated 0" in output(after)


@pytest.mark.parametrize("where", ["a remembered package's folder", "a folder no package owns"])
def test_a_stale_file_anywhere_is_caught_with_every_package_remembered(work, warm, where):
    stale = work / ("gen/ts/src/acme/synth3/v1/old_pb.ts" if where.startswith("a remembered")
                    else "gen/python/src/acme/retired/v1/retired_pb2.py")
    stale.parent.mkdir(parents=True, exist_ok=True)
    stale.write_text("// left from an earlier generation\n")
    commit(work, "a stale generated file")
    result = drift(work, warm)
    assert result.returncode != 0, output(result)
    assert "regenerated 0" in output(result)
    assert f"{stale.relative_to(work)}  (generation does not write it: stale or hand-made)" in output(result)


def test_hand_edits_and_deletions_in_remembered_packages_are_caught(work, warm):
    edited = work / "gen/java/src/main/java/com/acme/synth12/v1/Item12.java"
    edited.write_text(edited.read_text().replace("public final class", "public class", 1))
    deleted = work / "gen/python/src/acme/synth20/v1/item_pb2.pyi"
    deleted.unlink()
    result = drift(work, warm)
    assert result.returncode != 0, output(result)
    assert "regenerated 0" in output(result)
    assert f"{edited.relative_to(work)}  (differs from what generation writes)" in output(result)
    assert f"{deleted.relative_to(work)}  (missing: generation writes it)" in output(result)


def test_a_new_generator_version_regenerates_everything(work, warm):
    # The generator is part of every key: any change to it (here a comment in buf.gen.yaml,
    # as a version bump would change versions.env) makes every remembered output unusable.
    template = work / "buf.gen.yaml"
    template.write_text(template.read_text() + "# touched\n")
    result = drift(work, warm)
    assert result.returncode == 0, output(result)
    assert "0 from the cache, regenerated 31" in output(result)


def test_a_package_moved_into_another_java_package_joins_its_unit(work, warm):
    """Two directories whose Java code shares a folder are one unit: a change to either
    regenerates both, so neither's remembered output can hide the other's files."""
    path = work / "proto/acme/synth7/v1/item.proto"
    path.write_text(path.read_text().replace(
        'option java_package = "com.acme.synth7.v1";',
        'option java_outer_classname = "Synth7ItemProto";\noption java_package = "com.acme.synth8.v1";'))
    result = drift(work, warm)
    assert result.returncode != 0, output(result)
    assert "regenerated 1: acme/synth7/v1, acme/synth8/v1 " in output(result)
    assert "gen/java/src/main/java/com/acme/synth8/v1/Item7.java  (missing: generation writes it)" in output(result)
    assert "gen/java/src/main/java/com/acme/synth7/v1/Item7.java  (generation does not write it: stale or hand-made)" in output(result)


def test_a_file_name_with_dots_is_remembered_like_any_other(work, tmp_path):
    """Python code of a.b.proto is a/b_pb2.py (protoc makes each dot a folder), as googleapis'
    k8s.min.proto has it: its unit must still own that folder, or nothing could be remembered."""
    extra = work / "proto/acme/synth5/v1/item.extra.proto"
    extra.write_text('syntax = "proto3";\n\npackage acme.synth5.v1;\n\n'
                     'option java_multiple_files = true;\noption java_package = "com.acme.synth5.v1";\n\n'
                     '// Extra5 is a message in a file whose name has a dot.\nmessage Extra5 {\n  // note is free text.\n  string note = 1;\n}\n')
    assert run(work, "gen").returncode == 0
    assert (work / "gen/python/src/acme/synth5/v1/item/extra_pb2.py").is_file()
    commit(work, "a file name with a dot")
    first = drift(work, tmp_path / "cache")
    assert first.returncode == 0 and "cache is not used" not in output(first), output(first)
    second = drift(work, tmp_path / "cache")
    assert second.returncode == 0, output(second)
    assert "31 units, 31 from the cache, regenerated 0" in output(second)


def test_drift_gate_passes_on_a_regenerated_tree(clone):
    result = run(clone, "drift")
    assert result.returncode == 0, output(result)


def test_drift_gate_catches_a_proto_change_without_regeneration(clone):
    apply(clone, SAFE[0])  # a new field, but gen/ is not regenerated
    commit(clone, "field added, gen/ forgotten")
    result = run(clone, "drift")
    assert result.returncode != 0
    assert "gen/java/src/main/java/com/acme/person/v1/Person.java" in output(result)
    assert "gen/ts/src/acme/person/v1/person_pb.ts" in output(result)
    assert "gen/python/src/acme/person/v1/person_pb2.py" in output(result)


def test_drift_gate_catches_a_hand_edited_generated_file(clone):
    stub = clone / "gen/ts/src/acme/auth/v1/auth_service_pb.ts"
    stub.write_text(stub.read_text() + "\nexport const patchedByHand = true;\n")
    commit(clone, "hand edit under gen/")
    result = run(clone, "drift")
    assert result.returncode != 0
    assert "gen/ts/src/acme/auth/v1/auth_service_pb.ts  (differs from what generation writes)" in output(result)


def test_drift_gate_catches_a_manifest_version_edited_by_hand(clone):
    pyproject = clone / "gen/python/pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace('\nversion = "', '\nversion = "9', 1))
    commit(clone, "SDK version bumped in one manifest only")
    result = run(clone, "drift")
    assert result.returncode != 0
    assert "gen/python/pyproject.toml" in output(result)


def test_drift_gate_catches_a_deleted_proto_whose_code_stayed(clone):
    apply(clone, SAFE[5])
    commit(clone, "new file")
    assert run(clone, "gen").returncode == 0
    commit(clone, "regenerated")
    assert run(clone, "drift").returncode == 0
    git(clone, "rm", "-q", "proto/acme/auth/v1/audit.proto")
    commit(clone, "file removed, gen/ forgotten")
    result = run(clone, "drift")
    assert result.returncode != 0
    assert "gen/ts/src/acme/auth/v1/audit_pb.ts  (generation does not write it: stale or hand-made)" in output(result)


@pytest.mark.parametrize("target, error", [("loop_pb.ts", "too many levels of symbolic links"),
                                           ("nowhere_pb.ts", "no such file or directory")],
                         ids=["link-to-itself", "link-to-nothing"])
def test_drift_gate_fails_on_a_file_under_gen_it_cannot_read(clone, target, error):
    # Skipped as "deleted from disk", an unreadable entry nothing generates passed as absent;
    # anything present under gen/ that cannot be read must fail.
    (clone / "gen/ts/src/acme/auth/v1/loop_pb.ts").symlink_to(target)
    commit(clone, "an unreadable file under gen/")
    result = run(clone, "drift")
    assert result.returncode != 0
    assert f"gen/ts/src/acme/auth/v1/loop_pb.ts: {error}" in output(result)
