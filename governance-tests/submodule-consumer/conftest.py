"""Fixtures: real git repositories in a temporary folder, as service teams have them. They are
made once per session and no test changes them: a test that moves a pin, commits or edits
works in a clone of its own, so every test passes alone and in any order. The order is
random unless asked (`--order=file|reverse|random`, `--order-seed=N`); the header names it.

- `contracts`: `contracts.git` (bare) made from this checkout's proto/ and buf.yaml, with the
  releases the tests move between, tagged (annotated, as `make release` tags) and pushed:
  v0.1.0 (as they are), v0.2.0 (a field added), the branch `preview` one untagged commit later
  (another field), v0.3.0 (a field renumbered: breaking).
- `ts_service`, `java_service`: a service repository made from a template by running the
  set-up block of its README as written (copy, cd, git init, npm ci, commit, add-contracts at
  v0.1.0, build), pushed to its own `service.git`.
- `ts_history`: the TypeScript service after a safe bump to v0.2.0 and an override bump to
  v0.3.0, pushed as the branch `history` of its `service.git`.

git runs with a default configuration (no global or system file): in particular it refuses
submodules from local paths, as git 2.38.1 and later do, and the tests do what the READMEs say
to do about that. Maven, npm and Node are this checkout's, with their caches under .tmp/, so
nothing is downloaded again; buf is only what a template's own `npm ci` installs.
"""

import dataclasses
import fcntl
import json
import os
import pathlib
import random
import re
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "consumers" / "submodule-template-ts"
JAVA_TEMPLATE = ROOT / "consumers" / "submodule-template-java"
PERSON = "proto/acme/person/v1/person.proto"
LAST_PERSON_FIELD = "  google.protobuf.Timestamp created_at = 6;\n"
OVERRIDE_REASON = "age moved to 9 with the person-spring migration; every client regenerates in this release"
# What git (2.38.1 and later) and the READMEs add for a repository on a local path.
ALLOW_FILE = ("-c", "protocol.file.allow=always")


def tool_path() -> str:
    # The monorepo's own node_modules/.bin (buf among them) is left out: a template's commands
    # must work with what the template installs. Maven first: the pinned one, as `mvn`.
    monorepo_bin = str(ROOT / "node_modules" / ".bin")
    entries = [p for p in os.environ["PATH"].split(os.pathsep) if p and p != monorepo_bin]
    return os.pathsep.join([str(ROOT / ".tmp" / "maven" / "bin"), *entries])


ENV = {
    **os.environ,
    "PATH": tool_path(),
    "GIT_AUTHOR_NAME": "submodule-consumer-suite",
    "GIT_AUTHOR_EMAIL": "suite@example.invalid",
    "GIT_COMMITTER_NAME": "submodule-consumer-suite",
    "GIT_COMMITTER_EMAIL": "suite@example.invalid",
    # A default git configuration: the machine's settings (signing, hooks, default branch,
    # protocol.file.allow) stay out of the test.
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "GIT_CONFIG_NOSYSTEM": "1",
    # `mvn` and the commands' Maven take this checkout's local repository, as the README types them.
    # Maven's own JVM compiles with the fast JIT only, with the serial collector: it runs for
    # seconds, and the full JIT's compiling costs more than it saves (measured on `mvn -q verify`
    # of the Java service: 10 CPU-s against 15). What Maven builds and tests is the same.
    "MAVEN_OPTS": f"-Dmaven.repo.local={ROOT}/.tmp/m2 -XX:TieredStopAtLevel=1 -XX:+UseSerialGC",
    # `npm ci` as the README types it, from npm's cache under .tmp/ (lib.sh names it).
    "npm_config_prefer_offline": "true",
}
for name in ("GITHUB_ACTIONS", "CONTRACTS_MVN", "GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS"):
    ENV.pop(name, None)


def run(cwd: pathlib.Path, *args: str, check: bool = True, env: dict | None = None) -> subprocess.CompletedProcess:
    result = subprocess.run(list(args), cwd=cwd, capture_output=True, text=True, env={**ENV, **(env or {})})
    if check and result.returncode != 0:
        raise AssertionError(f"{' '.join(args)} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    return result


def git(repo: pathlib.Path, *args: str) -> str:
    return run(repo, "git", *args).stdout.strip()


def build(repo: pathlib.Path) -> None:
    run(repo, "npm", "run", "--silent", "build")


def maven(repo: pathlib.Path, *goals: str) -> None:
    """`mvn` as the Java README types it (ENV makes it the pinned one, on the local repository)."""
    run(repo, "mvn", "-B", "-q", *goals)


def last_message(repo: pathlib.Path) -> str:
    return git(repo, "log", "-1", "--format=%B")


def readme_block(readme: pathlib.Path, heading: str) -> str:
    """The first ```sh block of the README section `## heading`."""
    section = readme.read_text().split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    match = re.search(r"```sh\n(.*?)```", section, re.S)
    assert match, f"{readme}: no sh block under '## {heading}'"
    return match.group(1)


def run_block(cwd: pathlib.Path, block: str, check: bool = True, **placeholders: str) -> subprocess.CompletedProcess:
    """A README block, line after line as a user types it, stopping at the first failure."""
    for placeholder, value in placeholders.items():
        assert placeholder in block, f"the block names no {placeholder}:\n{block}"
        block = block.replace(placeholder, value)
    return run(cwd, "bash", "-euo", "pipefail", "-c", block, check=check)


def copy_listed(src: pathlib.Path, dest: pathlib.Path, *paths: str) -> None:
    """The tracked and unignored files of src (so uncommitted work is tested too), links kept."""
    listed = git(src, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", *paths).split("\0")
    for rel in filter(None, listed):
        source, target = src / rel, dest / rel
        if source.is_symlink():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.symlink_to(os.readlink(source))
        elif source.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def add_person_field(comment: str, declaration: str):
    def edit(repo: pathlib.Path) -> None:
        path = repo / PERSON
        text = path.read_text()
        assert LAST_PERSON_FIELD in text
        path.write_text(text.replace(LAST_PERSON_FIELD, f"{LAST_PERSON_FIELD}  // {comment}\n  {declaration}\n"))
    return edit


def renumber_age(repo: pathlib.Path) -> None:
    path = repo / PERSON
    text = path.read_text()
    assert "int32 age = 3 [" in text
    path.write_text(text.replace("int32 age = 3 [", "int32 age = 9 ["))


@dataclasses.dataclass
class Contracts:
    url: str
    repo: pathlib.Path

    def commit(self, ref: str) -> str:
        return git(self.repo, "rev-parse", f"{ref}^{{commit}}")


@dataclasses.dataclass
class Service:
    template: pathlib.Path
    contracts: Contracts
    url: str
    base: pathlib.Path  # made by the README's set-up block; read, never changed, by tests
    setup: subprocess.CompletedProcess  # what that block printed

    def clone(self, dest: pathlib.Path, branch: str = "main", tools: bool = True) -> pathlib.Path:
        """A clone of the service with its submodule, as the README's local-path note says. The
        tools a clone installs (npm ci) and fetches once (.contracts-deps) are the set-up
        service's, linked rather than installed again; tools=False leaves them out."""
        run(dest.parent, "git", *ALLOW_FILE, "clone", "-q", "--recurse-submodules", "-b", branch, self.url, str(dest))
        if tools:
            for folder in ("node_modules", ".contracts-deps"):
                run(dest.parent, "cp", "-al", str(self.base / folder), str(dest / folder))
        return dest

    def gen_dir(self) -> str:
        env = dict(line.split("=", 1) for line in (self.template / "contracts.env").read_text().splitlines()
                   if line and not line.startswith("#"))
        return env["GEN_DIR"]


def bump(repo: pathlib.Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return run(repo, "scripts/bump-contracts", *args, check=False, env=env)


def check(repo: pathlib.Path, base: str, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return run(repo, "scripts/check-contracts-bump", base, *args, check=False, env=env)


def pin(repo: pathlib.Path, rev: str = "HEAD") -> str:
    return git(repo, "rev-parse", f"{rev}:contracts")


def checked_out(repo: pathlib.Path) -> str:
    return git(repo / "contracts", "rev-parse", "HEAD")


def shared(tmp_path_factory, name: str, make, save, load):
    """A session fixture made once for every worker when tests run side by side (pytest-xdist):
    the first worker that needs it makes it in the folder the workers share, under a lock, and
    writes down what it made (save); the others wait and read that (load). make(folder) builds
    it in a new folder. Alone, it is simply made."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return make(tmp_path_factory.mktemp(name))
    root = tmp_path_factory.getbasetemp().parent  # the run's folder, above each worker's own
    made = root / f"{name}.json"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if made.exists():
            return load(json.loads(made.read_text()))
        folder = root / name
        folder.mkdir()
        value = make(folder)
        made.write_text(json.dumps(save(value)))
        return value


def make_contracts(tmp: pathlib.Path) -> Contracts:
    url = str(tmp / "contracts.git")
    git(tmp, "init", "-q", "--bare", "-b", "main", url)
    repo = tmp / "contracts"
    repo.mkdir()
    copy_listed(ROOT, repo, "proto", "buf.yaml", ".gitignore")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "remote", "add", "origin", url)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "contracts as they are")
    git(repo, "tag", "-a", "v0.1.0", "-m", "contracts v0.1.0")
    for message, ref, edit in (
        ("Person: add nickname", "v0.2.0", add_person_field("nickname is what friends call the person.", "string nickname = 7;")),
        ("Person: add pronouns", "preview", add_person_field("pronouns are how the person is referred to.", "string pronouns = 8;")),
        ("Person: renumber age", "v0.3.0", renumber_age),
    ):
        edit(repo)
        git(repo, "commit", "-qam", message)
        if ref.startswith("v"):
            git(repo, "tag", "-a", ref, "-m", f"contracts {ref}")
        else:
            git(repo, "branch", ref)
    git(repo, "push", "-q", "origin", "main", "preview", "--tags")
    return Contracts(url, repo)


@pytest.fixture(scope="session")
def contracts(tmp_path_factory) -> Contracts:
    return shared(tmp_path_factory, "contracts", make_contracts,
                  lambda c: {"url": c.url, "repo": str(c.repo)},
                  lambda d: Contracts(d["url"], pathlib.Path(d["repo"])))


def make_checkout(checkout: pathlib.Path) -> pathlib.Path:
    copy_listed(ROOT, checkout, "consumers")
    return checkout


@pytest.fixture(scope="session")
def contracts_checkout(tmp_path_factory) -> pathlib.Path:
    """What `path/to/contracts` is in the READMEs: this checkout's consumers/, links and all."""
    return shared(tmp_path_factory, "contracts-checkout", make_checkout, str, pathlib.Path)


def new_service(tmp: pathlib.Path, template: pathlib.Path, contracts: Contracts, contracts_url: str,
                checkout: pathlib.Path) -> Service:
    setup = run_block(tmp, readme_block(template / "README.md", "Set up a service repository"),
                      **{"path/to/contracts": str(checkout), "<contracts repository URL>": contracts_url})
    base = tmp / "my-service"
    url = str(tmp / "service.git")
    git(tmp, "init", "-q", "--bare", "-b", "main", url)
    git(base, "remote", "add", "origin", url)
    git(base, "push", "-q", "origin", "main")
    return Service(template, contracts, url, base, setup)


def shared_service(tmp_path_factory, name: str, template: pathlib.Path, contracts: Contracts, contracts_url: str,
                   checkout: pathlib.Path) -> Service:
    def save(s: Service) -> dict:
        return {"url": s.url, "base": str(s.base),
                "setup": [s.setup.args, s.setup.returncode, s.setup.stdout, s.setup.stderr]}

    def load(d: dict) -> Service:
        return Service(template, contracts, d["url"], pathlib.Path(d["base"]), subprocess.CompletedProcess(*d["setup"]))

    return shared(tmp_path_factory, name, lambda tmp: new_service(tmp, template, contracts, contracts_url, checkout),
                  save, load)


def unchanged(service: Service):
    """The set-up service as it was: the guard that no test changed what every test shares."""
    head, status = git(service.base, "rev-parse", "HEAD"), git(service.base, "status", "--porcelain")
    yield service
    assert (git(service.base, "rev-parse", "HEAD"), git(service.base, "status", "--porcelain")) == (head, status), \
        "a test changed the shared service; it must work in a clone of its own"


@pytest.fixture(scope="session")
def ts_service(tmp_path_factory, contracts, contracts_checkout) -> Service:
    """A TypeScript service from consumers/submodule-template-ts; the contracts by a file:// URL."""
    yield from unchanged(shared_service(tmp_path_factory, "ts", TEMPLATE, contracts,
                                        f"file://{contracts.url}", contracts_checkout))


@pytest.fixture(scope="session")
def java_service(tmp_path_factory, contracts, contracts_checkout) -> Service:
    """A Java service from consumers/submodule-template-java; the contracts by a plain path."""
    yield from unchanged(shared_service(tmp_path_factory, "java", JAVA_TEMPLATE, contracts,
                                        contracts.url, contracts_checkout))


def make_history(tmp: pathlib.Path, ts_service: Service) -> Service:
    repo = ts_service.clone(tmp / "service")
    for args in (["v0.2.0"], ["v0.3.0", "--allow-breaking", OVERRIDE_REASON]):
        result = bump(repo, *args)
        assert result.returncode == 0, result.stdout + result.stderr
    git(repo, "push", "-q", "origin", "HEAD:refs/heads/history")
    return ts_service


@pytest.fixture(scope="session")
def ts_history(tmp_path_factory, ts_service) -> Service:
    """The branch `history`: the service at v0.1.0, a safe bump to v0.2.0, an override bump to v0.3.0."""
    return shared(tmp_path_factory, "history", lambda tmp: make_history(tmp, ts_service),
                  lambda s: True, lambda d: ts_service)


# With tests side by side, the first two workers set up the shared repositories at once before
# their first test: the first the TypeScript service and its history, the second the Java one.
# Otherwise both could start with a test that waits for the same set-up, the other set-up idle.
SET_UP_BY = {"gw0": ("ts_service", "ts_history"), "gw1": ("java_service",)}


@pytest.fixture(scope="session", autouse=True)
def set_up_side_by_side(request):
    for name in SET_UP_BY.get(os.environ.get("PYTEST_XDIST_WORKER", ""), ()):
        if any(name in item.fixturenames for item in request.session.items):
            request.getfixturevalue(name)


# Test order: every test stands alone, and the suite proves it by not running them in file order.
def pytest_addoption(parser):
    parser.addoption("--order", choices=("random", "reverse", "file"), default="random",
                     help="the order tests run in (default random; the seed is in the header)")
    parser.addoption("--order-seed", type=int, default=None, help="the seed of --order=random")


def order_seed(config) -> int:
    if config.getoption("order_seed") is None:
        given = getattr(config, "workerinput", {}).get("order_seed")  # a worker takes the run's seed
        config.option.order_seed = given if given is not None else random.SystemRandom().randrange(10**6)
    return config.getoption("order_seed")


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    # pytest-xdist: every worker must collect the tests in the same order, so each gets the seed.
    node.workerinput["order_seed"] = order_seed(node.config)


def order_line(config) -> str:
    order = config.getoption("order")
    return f"test order: {order}" + (f" (--order-seed={order_seed(config)} runs it again)" if order == "random" else "")


def pytest_report_header(config):
    return order_line(config)


def pytest_terminal_summary(terminalreporter, config):
    # Also under -q, which prints no header: a failure in one order is reproduced with its seed.
    terminalreporter.write_line(order_line(config))


def pytest_collection_modifyitems(config, items):
    order = config.getoption("order")
    if order == "reverse":
        items.reverse()
    elif order == "random":
        random.Random(order_seed(config)).shuffle(items)
