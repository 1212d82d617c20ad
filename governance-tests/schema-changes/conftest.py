"""Fixtures: a throwaway copy of this repository, as its own git repo, for every case.

The template is this working tree's tracked and unignored files (so uncommitted work is
tested too), committed as `main`. Each case clones it, commits its edit on a branch, and
runs the real gate there (scripts/gate/gate: the gate/ binary set-up built, with buf and its
check plugin): the breaking check then compares against the merge base with main, exactly as
`make check` does for a developer. Tools are not copied: .tmp/ and node_modules/ are linked
from this checkout. Each clone's gate writes its findings document and report beside the
clone (GATE_OUT), so a case reads its own.
"""

import os
import pathlib
import shutil
import subprocess

import pytest

from edits import ROOT

GIT_ENV = {
    "GIT_AUTHOR_NAME": "schema-change-suite",
    "GIT_AUTHOR_EMAIL": "suite@example.invalid",
    "GIT_COMMITTER_NAME": "schema-change-suite",
    "GIT_COMMITTER_EMAIL": "suite@example.invalid",
}


def git(repo: pathlib.Path, *args: str) -> str:
    result = subprocess.run(
        ["git", "-C", str(repo), *args],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, **GIT_ENV},
    )
    return result.stdout


def age(*paths: pathlib.Path) -> None:
    """Makes each path look unused for years: the gate touches what it reads from its caches,
    so that CI forgets only what went unused (pull-request.yml), and tests check that here."""
    for path in paths:
        os.utime(path, (LONG_AGO, LONG_AGO))


LONG_AGO = 946684800  # 2000-01-01


def link_tools(repo: pathlib.Path) -> None:
    for name in (".tmp", "node_modules"):
        (repo / name).symlink_to(ROOT / name, target_is_directory=True)


# Fixtures made once per module that take seconds (the 60-file drift tree, the modified gate):
# with cases run side by side (pytest-xdist), every test that uses one runs on the same worker,
# so each is made once.
SHARED_BY_MODULE = ("tree", "blind_gate")


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook, which reads the groups
def pytest_collection_modifyitems(items):
    for item in items:
        for name in SHARED_BY_MODULE:
            if name in item.fixturenames:
                item.add_marker(pytest.mark.xdist_group(name))


@pytest.fixture(scope="session")
def template(tmp_path_factory) -> pathlib.Path:
    repo = tmp_path_factory.mktemp("template")
    listed = git(ROOT, "ls-files", "-z", "--cached", "--others", "--exclude-standard").split("\0")
    for rel in filter(None, listed):
        src = ROOT / rel
        if src.is_file():
            dest = repo / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "contracts as they are")
    return repo


@pytest.fixture
def clone(template, tmp_path) -> pathlib.Path:
    repo = tmp_path / "repo"
    subprocess.run(["git", "clone", "-q", str(template), str(repo)], check=True)
    link_tools(repo)
    git(repo, "checkout", "-q", "-b", "change")
    return repo
