"""Fixtures: real git repositories in a temporary folder, as a service team would have them.

- `contracts.git`, a bare repository made from this checkout's proto/ and buf.yaml, tagged
  v0.1.0, with a working clone (`contracts`) that tests edit, commit, tag and push;
- `service.git`, a bare repository made from consumers/submodule-template-ts (its tracked and
  unignored files, so uncommitted work is tested too) that adds the contracts as a git
  submodule at v0.1.0, generates, compiles and is pushed; its working clone is `service`.

The tools are this checkout's: the project Node, npm's cache and Maven's local repository
under .tmp/, so nothing is downloaded again.
"""

import dataclasses
import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "consumers" / "submodule-template-ts"
JAVA_TEMPLATE = ROOT / "consumers" / "submodule-template-java"

ENV = {
    **os.environ,
    "GIT_AUTHOR_NAME": "submodule-consumer-suite",
    "GIT_AUTHOR_EMAIL": "suite@example.invalid",
    "GIT_COMMITTER_NAME": "submodule-consumer-suite",
    "GIT_COMMITTER_EMAIL": "suite@example.invalid",
    # The machine's own git settings (signing, hooks, default branch) stay out of the test.
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
    # Submodules over file paths are refused by default since git 2.38.1 (CVE-2022-39253).
    "GIT_CONFIG_COUNT": "1",
    "GIT_CONFIG_KEY_0": "protocol.file.allow",
    "GIT_CONFIG_VALUE_0": "always",
    "CONTRACTS_MVN": f"{ROOT}/.tmp/maven/bin/mvn -Dmaven.repo.local={ROOT}/.tmp/m2",
}
ENV.pop("GITHUB_ACTIONS", None)


def run(cwd: pathlib.Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run(list(args), cwd=cwd, capture_output=True, text=True, env=ENV)
    if check and result.returncode != 0:
        raise AssertionError(f"{' '.join(args)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    return result


def git(repo: pathlib.Path, *args: str) -> str:
    return run(repo, "git", *args).stdout.strip()


def npm_install(repo: pathlib.Path, template: pathlib.Path = TEMPLATE) -> None:
    # `npm ci`, as the template's README says: it installs exactly the committed lock and fails
    # when the lock disagrees with package.json. --prefer-offline takes every package from npm's
    # cache under .tmp/.
    run(repo, "npm", "ci", "--ignore-scripts", "--prefer-offline", "--no-audit", "--no-fund")
    lockfile = (repo / "package-lock.json").read_text()
    assert lockfile == (template / "package-lock.json").read_text(), "npm ci changed the template's lockfile"


def build(repo: pathlib.Path) -> None:
    run(repo, "npm", "run", "--silent", "build")


@dataclasses.dataclass
class World:
    tmp: pathlib.Path
    contracts_url: str
    contracts: pathlib.Path
    service_url: str
    service: pathlib.Path

    def release(self, message: str, tag: str | None, edit) -> str:
        """Commits an edit of the contracts (a function of the repo path), tags and pushes it."""
        edit(self.contracts)
        git(self.contracts, "commit", "-qam", message)
        git(self.contracts, "push", "-q", "origin", "main")
        if tag:
            git(self.contracts, "tag", "-a", tag, "-m", f"contracts {tag}")
            git(self.contracts, "push", "-q", "origin", tag)
        return git(self.contracts, "rev-parse", "HEAD")

    def bump(self, *args: str, repo: pathlib.Path | None = None) -> subprocess.CompletedProcess:
        return run(repo or self.service, "scripts/bump-contracts", *args, check=False)

    def pin(self, rev: str = "HEAD", repo: pathlib.Path | None = None) -> str:
        return git(repo or self.service, "rev-parse", f"{rev}:contracts")


def copy_listed(src: pathlib.Path, dest: pathlib.Path, *paths: str) -> None:
    listed = git(src, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", *paths).split("\0")
    for rel in filter(None, listed):
        if (src / rel).is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src / rel, dest / rel)


def maven(repo: pathlib.Path, *goals: str) -> None:
    """The machine's Maven as the templates' scripts use it (CONTRACTS_MVN), on the local repository."""
    run(repo, *ENV["CONTRACTS_MVN"].split(), "-B", "-q", *goals)


def new_contracts(tmp: pathlib.Path) -> tuple[str, pathlib.Path]:
    """contracts.git (bare) made from this checkout's proto/ and buf.yaml, tagged v0.1.0, and its clone."""
    contracts_url = str(tmp / "contracts.git")
    git(tmp, "init", "-q", "--bare", "-b", "main", contracts_url)
    contracts = tmp / "contracts"
    contracts.mkdir()
    copy_listed(ROOT, contracts, "proto", "buf.yaml", ".gitignore")
    git(contracts, "init", "-q", "-b", "main")
    git(contracts, "remote", "add", "origin", contracts_url)
    git(contracts, "add", "-A")
    git(contracts, "commit", "-qm", "contracts as they are")
    git(contracts, "tag", "-a", "v0.1.0", "-m", "contracts v0.1.0")
    git(contracts, "push", "-q", "origin", "main", "v0.1.0")
    return contracts_url, contracts


def new_world(tmp: pathlib.Path, template: pathlib.Path, build_service) -> World:
    """A contracts repository, and a service made from a template the way its README says:
    the template committed, then `scripts/add-contracts URL v0.1.0`, built and pushed."""
    contracts_url, contracts = new_contracts(tmp)
    service_url = str(tmp / "service.git")
    git(tmp, "init", "-q", "--bare", "-b", "main", service_url)
    service = tmp / "service"
    service.mkdir()
    copy_listed(template, service, ".")
    git(service, "init", "-q", "-b", "main")
    git(service, "remote", "add", "origin", service_url)
    npm_install(service, template)
    git(service, "add", "-A")
    git(service, "commit", "-qm", f"A service from {template.name}")
    run(service, "scripts/add-contracts", contracts_url, "v0.1.0")
    build_service(service)
    git(service, "push", "-q", "origin", "main")
    return World(tmp, contracts_url, contracts, service_url, service)


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> World:
    """A TypeScript service from consumers/submodule-template-ts."""
    return new_world(tmp_path_factory.mktemp("submodule-consumer"), TEMPLATE, build)


@pytest.fixture(scope="module")
def java_world(tmp_path_factory) -> World:
    """A Java service from consumers/submodule-template-java."""
    return new_world(tmp_path_factory.mktemp("submodule-consumer-java"), JAVA_TEMPLATE, lambda repo: maven(repo, "verify"))
