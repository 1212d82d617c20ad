"""Running the real gate in a clone, and reading what it wrote.

`run(repo, "check", "--schema-only")` runs scripts/gate/gate there (the gate/ binary with the
project's tools on PATH). Its findings document (.../gate-out/findings.json, beside the clone)
is what assertions read: `findings(repo)` names each finding by rule, element and verdict, so a
case says which findings it expects, not how many lines were printed.
"""

import json
import os
import pathlib
import subprocess

from conftest import git

OWN_ENV = ("BASE_REF", "GATE_OUT", "GATE_CACHE", "GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY")


def out_dir(repo: pathlib.Path) -> pathlib.Path:
    return repo.parent / "gate-out"


def run(repo: pathlib.Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    clean_env = {k: v for k, v in os.environ.items() if k not in OWN_ENV}
    return subprocess.run(
        ["bash", "scripts/gate/gate", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        env={**clean_env, "GATE_OUT": str(out_dir(repo)), **env},
        timeout=600,
    )


def gate(repo: pathlib.Path, **env: str) -> subprocess.CompletedProcess:
    """lint + format + breaking: the schema part of `make check` (drift is tested apart)."""
    return run(repo, "check", "--schema-only", **env)


def output(result: subprocess.CompletedProcess) -> str:
    return result.stdout + result.stderr


def document(repo: pathlib.Path) -> dict:
    doc = json.loads((out_dir(repo) / "findings.json").read_text())
    assert doc["schema"] == "acme.gate.findings/v1"
    return doc


def findings(repo: pathlib.Path) -> set[tuple[str, str, str]]:
    """Every finding of the last run: (rule, element, verdict)."""
    return {(f["rule"], f["element"], f["verdict"]) for f in document(repo)["findings"]}


def finding(repo: pathlib.Path, rule: str, element: str) -> dict:
    found = [f for f in document(repo)["findings"] if f["rule"] == rule and f["element"] == element]
    assert len(found) == 1, (rule, element, document(repo)["findings"])
    return found[0]


def commit(repo: pathlib.Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
