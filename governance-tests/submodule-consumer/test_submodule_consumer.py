"""The git-submodule consumer path, end to end, with real git, buf, Maven and tsc, on the
TypeScript template and the commands every template shares (consumers/submodule-scripts).

Every test starts from the fixtures of conftest.py, which no test changes: a test that bumps,
commits or edits does it in a clone of its own, so the tests pass in any order.
"""

import json
import pathlib
import re

import yaml
from conftest import (ALLOW_FILE, OVERRIDE_REASON, ROOT, TEMPLATE, Service, build, bump, check, checked_out, git,
                      last_message, pin, readme_block, run, run_block)


def generated_person(repo: pathlib.Path) -> str:
    return (repo / "src/gen/acme/person/v1/person_pb.ts").read_text()


def contracts_version(repo: pathlib.Path) -> str:
    return (repo / "src/gen/contracts_version.ts").read_text()


def read_env(path: pathlib.Path) -> dict[str, str]:
    pairs = (line.split("=", 1) for line in path.read_text().splitlines() if line and not line.startswith("#"))
    return dict(pairs)


def clean(repo: pathlib.Path) -> bool:
    return git(repo, "status", "--porcelain") == ""


def test_template_pins_the_versions_this_repository_pins():
    # The template is copied into other repositories, so it carries literal versions of its
    # own; they must not drift from versions.env (its lockfile is checked by npm ci).
    versions = read_env(ROOT / "versions.env")
    manifest = json.loads((TEMPLATE / "package.json").read_text())
    pinned = {**manifest["dependencies"], **manifest["devDependencies"]}
    assert pinned == {
        "@bufbuild/buf": versions["BUF_VERSION"],
        "@bufbuild/protoc-gen-es": versions["PROTOBUF_ES_VERSION"],
        "@bufbuild/protobuf": versions["PROTOBUF_ES_VERSION"],
        "@bufbuild/protovalidate": versions["PROTOVALIDATE_ES_VERSION"],
        "typescript": versions["TYPESCRIPT_VERSION"],
    }
    assert read_env(TEMPLATE / "contracts.env")["PROTOVALIDATE_VERSION"] == versions["PROTOVALIDATE_JAVA_VERSION"]


def test_readme_setup_generates_and_compiles_at_the_release_tag(ts_service: Service):
    service = ts_service.base
    assert pin(service) == ts_service.contracts.commit("v0.1.0")
    assert 'CONTRACTS_VERSION = "v0.1.0"' in contracts_version(service)
    assert (service / "dist/contracts.js").is_file()
    # npm ci installed exactly the committed lock.
    assert (service / "package-lock.json").read_text() == (TEMPLATE / "package-lock.json").read_text()
    # validate.proto was fetched for buf, never committed.
    assert (service / ".contracts-deps/proto/buf/validate/validate.proto").is_file()
    assert "buf/validate" not in git(service, "ls-files")
    # The generated code takes buf.validate from @bufbuild/protovalidate, not from itself.
    assert "@bufbuild/protovalidate/gen/buf/validate/validate_pb.js" in generated_person(service)


def test_add_contracts_pins_the_tag_in_one_commit(ts_service: Service):
    # Edge: by hand, a commit right after `git submodule add` pins the default branch.
    service = ts_service.base
    assert git(service, "log", "-1", "--format=%s") == "Consume the contracts at v0.1.0 as a submodule"
    changed = git(service, "show", "--name-only", "--format=", "HEAD").splitlines()
    assert ".gitmodules" in changed and "contracts" in changed
    assert all(p in (".gitmodules", "contracts") or p.startswith("src/gen/") for p in changed), changed
    assert clean(service)


def fresh_service(tmp: pathlib.Path, tools_from: pathlib.Path | None = None) -> pathlib.Path:
    """The template committed in a new repository, before add-contracts."""
    fresh = tmp / "fresh-service"
    run(tmp, "cp", "-rL", f"{TEMPLATE}/.", str(fresh))
    git(fresh, "init", "-q", "-b", "main")
    git(fresh, "add", "-A")
    git(fresh, "commit", "-qm", "template")
    if tools_from:
        run(tmp, "cp", "-al", str(tools_from / "node_modules"), str(fresh / "node_modules"))
    return fresh


def test_add_contracts_refuses_a_tag_that_does_not_exist_and_leaves_nothing(ts_service: Service, tmp_path):
    fresh = fresh_service(tmp_path, tools_from=ts_service.base)

    result = run(fresh, "scripts/add-contracts", ts_service.contracts.url, "v0.1.9", check=False)

    assert result.returncode == 1
    assert "'v0.1.9' is no tag of the contracts repository; its newest tags: v0.3.0, v0.2.0, v0.1.0" in result.stderr
    assert clean(fresh)
    assert not (fresh / "contracts").exists()


def test_add_contracts_takes_a_local_repository_with_a_default_git_config(ts_service: Service, tmp_path):
    # git 2.38.1 and later refuse a submodule from a local path; the suite's git has no setting
    # that allows it (the premise), yet add-contracts took the file:// URL, and says what clones need.
    assert run(tmp_path, "git", "config", "--get", "protocol.file.allow", check=False).stdout == ""
    fresh = fresh_service(tmp_path)
    refused = run(fresh, "git", "submodule", "add", "-q", f"file://{ts_service.contracts.url}", "contracts", check=False)
    assert refused.returncode != 0 and "transport 'file' not allowed" in refused.stderr
    assert ts_service.setup.returncode == 0
    assert "git -c protocol.file.allow=always clone --recurse-submodules" in ts_service.setup.stdout


def test_add_contracts_prints_the_release_commit_for_the_workflow(ts_service: Service):
    # Release tags are annotated: the tag's own id is not the commit a workflow is pinned to.
    contracts = ts_service.contracts
    tag_object = git(contracts.repo, "rev-parse", "v0.1.0")
    commit = contracts.commit("v0.1.0")
    assert tag_object != commit
    assert f"submodule-bump-check.yml@{commit} # v0.1.0" in ts_service.setup.stdout
    # The command the README gives for it names the commit too.
    readme = (TEMPLATE / "scripts/README.md").read_text()
    documented = re.search(r"The commit of a release is `([^`]+)`", readme).group(1)
    assert run(contracts.repo, *documented.split()).stdout.strip() == commit


def test_safe_bump_to_a_new_tag_is_committed_and_still_compiles(ts_service: Service, tmp_path):
    service = ts_service.clone(tmp_path / "service")
    before = git(service, "rev-parse", "HEAD")
    new = ts_service.contracts.commit("v0.2.0")

    result = bump(service, "v0.2.0")

    assert result.returncode == 0, result.stdout + result.stderr
    assert "buf breaking: no breaking change" in result.stdout
    assert f"now built against v0.2.0 (commit {new})" in result.stdout
    assert "not a release tag" not in result.stderr
    assert pin(service) == new == checked_out(service)
    assert git(service, "rev-parse", "HEAD~1") == before
    message = last_message(service)
    assert message.startswith("Bump contracts to v0.2.0\n")
    assert "no breaking change" in message
    assert "Contracts-Breaking-Override" not in message
    assert "nickname: string;" in generated_person(service)
    assert 'CONTRACTS_VERSION = "v0.2.0"' in contracts_version(service)
    assert clean(service)
    build(service)


def test_bump_to_an_untagged_branch_warns(ts_service: Service, tmp_path):
    service = ts_service.clone(tmp_path / "service")
    new = ts_service.contracts.commit("preview")

    result = bump(service, "preview")

    assert result.returncode == 0, result.stdout + result.stderr
    assert "is not a release tag (v*) but v0.2.0-1-g" in result.stderr
    assert "now built against v0.2.0-1-g" in result.stdout
    assert pin(service) == new
    assert 'CONTRACTS_VERSION = "v0.2.0-1-g' in contracts_version(service)


def test_a_mistyped_tag_gets_the_newest_tags(ts_service: Service, tmp_path):
    service = ts_service.clone(tmp_path / "service")
    head = git(service, "rev-parse", "HEAD")
    result = bump(service, "v0.2.1")
    assert result.returncode == 1
    assert "'v0.2.1' is no tag, branch or commit of the contracts repository; its newest tags: v0.3.0, v0.2.0, v0.1.0" in result.stderr
    assert git(service, "rev-parse", "HEAD") == head


def test_breaking_bump_is_refused_and_changes_nothing(ts_service: Service, tmp_path):
    service = ts_service.clone(tmp_path / "service")
    head, before = git(service, "rev-parse", "HEAD"), pin(service)

    result = bump(service, "v0.3.0")

    assert result.returncode == 1
    assert 'FIELD_NO_DELETE : Previously present field "3" with name "age" on message "Person" was deleted.' in result.stdout
    assert "refused: 1 breaking change(s)" in result.stderr
    assert "--allow-breaking" in result.stderr
    assert git(service, "rev-parse", "HEAD") == head
    assert pin(service) == before == checked_out(service)
    assert clean(service)


def test_override_needs_a_written_reason(ts_service: Service, tmp_path):
    service = ts_service.clone(tmp_path / "service")
    head = git(service, "rev-parse", "HEAD")
    for reason in ("", "   "):
        result = bump(service, "v0.3.0", "--allow-breaking", reason)
        assert result.returncode == 1
        assert "needs a written reason" in result.stderr
    assert "needs a written reason" in bump(service, "v0.3.0", "--allow-breaking").stderr
    assert git(service, "rev-parse", "HEAD") == head
    assert clean(service)


def test_breaking_bump_with_override_records_the_reason(ts_service: Service, tmp_path):
    service = ts_service.clone(tmp_path / "service")
    new = ts_service.contracts.commit("v0.3.0")

    result = bump(service, "v0.3.0", "--allow-breaking", OVERRIDE_REASON)

    assert result.returncode == 0, result.stdout + result.stderr
    assert "accepting 1 breaking change(s) by override" in result.stderr
    assert f"now built against v0.3.0 (commit {new})" in result.stdout
    assert pin(service) == new
    message = last_message(service)
    assert message.startswith("Bump contracts to v0.3.0, overriding breaking changes\n")
    assert "FIELD_NO_DELETE" in message
    assert message.rstrip().endswith(f"Contracts-Breaking-Override: {OVERRIDE_REASON}")
    trailer = git(service, "log", "-1", "--format=%(trailers:key=Contracts-Breaking-Override,valueonly)")
    assert trailer == OVERRIDE_REASON
    assert clean(service)
    build(service)


def test_override_on_the_pin_it_already_has_says_the_reason_is_not_recorded(ts_history: Service, tmp_path):
    service = ts_history.clone(tmp_path / "service", branch="history")
    head = git(service, "rev-parse", "HEAD")

    again = bump(service, "v0.3.0", "--allow-breaking", "a second reason")

    assert again.returncode == 0, again.stdout + again.stderr
    assert f"with the reason: {OVERRIDE_REASON}; this --allow-breaking reason is not recorded" in again.stderr
    assert git(service, "rev-parse", "HEAD") == head
    # At the pin the contracts were added with, there is no bump to record a reason on at all.
    added = ts_history.clone(tmp_path / "added")
    refused = bump(added, "v0.1.0", "--allow-breaking", "a reason")
    assert refused.returncode == 1
    assert "the --allow-breaking reason is not recorded" in refused.stderr


def test_bump_leaves_untracked_files_alone_and_out_of_the_commit(ts_service: Service, tmp_path):
    service = ts_service.clone(tmp_path / "service")
    (service / "notes.txt").write_text("not committed\n")

    result = bump(service, "v0.2.0")

    assert result.returncode == 0, result.stdout + result.stderr
    assert (service / "notes.txt").read_text() == "not committed\n"
    assert git(service, "status", "--porcelain") == "?? notes.txt"
    assert "notes.txt" not in git(service, "show", "--name-only", "--format=", "HEAD")


def test_bump_refuses_changed_files_and_says_commit_or_stash(ts_service: Service, tmp_path):
    service = ts_service.clone(tmp_path / "service")
    (service / "src/contracts.ts").write_text("// an edit in progress\n")
    head = git(service, "rev-parse", "HEAD")

    result = bump(service, "v0.2.0")

    assert result.returncode == 1
    assert "changed or staged files: commit or stash them" in result.stderr
    assert "M src/contracts.ts" in result.stderr
    assert git(service, "rev-parse", "HEAD") == head


def test_bump_refuses_untracked_files_in_the_generated_code_and_says_move_them(ts_service: Service, tmp_path):
    service = ts_service.clone(tmp_path / "service")
    (service / "src/gen/handwritten.ts").write_text("export const mine = 1;\n")

    result = bump(service, "v0.2.0")

    assert result.returncode == 1
    assert "untracked files in src/gen, which holds generated code only" in result.stderr
    assert "move them out of it" in result.stderr
    assert "?? src/gen/handwritten.ts" in result.stderr
    assert "commit or stash" not in result.stderr
    assert (service / "src/gen/handwritten.ts").is_file()


def test_bump_refuses_a_submodule_checked_out_on_another_branch_and_says_how_to_put_it_back(ts_service: Service, tmp_path):
    service = ts_service.clone(tmp_path / "service")
    git(service / "contracts", "checkout", "-q", "-b", "mine", "origin/preview")
    (service / "contracts/NOTES.md").write_text("an edit of the contracts, here\n")

    result = bump(service, "v0.2.0")

    assert result.returncode == 1
    assert "checked out at v0.2.0-1-g" in result.stderr and "on branch 'mine', but HEAD pins v0.1.0" in result.stderr
    assert "git submodule update -- contracts" in result.stderr
    assert "git -C contracts stash -u" in result.stderr and "?? NOTES.md" in result.stderr
    assert "commit or stash" not in result.stderr
    assert pin(service) == ts_service.contracts.commit("v0.1.0")
    # What it says works: the edit kept aside, the submodule back at the pin, and the bump goes through.
    git(service / "contracts", "stash", "-q", "-u")
    git(service, "submodule", "update", "-q", "--", "contracts")
    assert bump(service, "v0.2.0").returncode == 0


def test_a_bump_whose_commit_fails_puts_everything_back(ts_service: Service, tmp_path):
    service = ts_service.clone(tmp_path / "service")
    (service / "notes.txt").write_text("not committed\n")
    hook = pathlib.Path(git(service, "rev-parse", "--git-path", "hooks/pre-commit"))
    hook = hook if hook.is_absolute() else service / hook
    hook.write_text("#!/bin/sh\necho 'pre-commit: refused' >&2\nexit 1\n")
    hook.chmod(0o755)
    head, before = git(service, "rev-parse", "HEAD"), pin(service)

    result = bump(service, "v0.2.0")

    assert result.returncode == 1
    assert "pre-commit: refused" in result.stderr
    assert "bump failed; the contracts pin is unchanged at v0.1.0" in result.stderr
    assert git(service, "rev-parse", "HEAD") == head
    assert checked_out(service) == before
    assert git(service, "status", "--porcelain") == "?? notes.txt"


def test_without_buf_every_command_says_to_run_npm_ci(ts_service: Service, tmp_path):
    # The premise: no buf anywhere on the suite's PATH but in a template's node_modules.
    assert run(tmp_path, "bash", "-c", "command -v buf", check=False).returncode == 1
    service = ts_service.clone(tmp_path / "service", tools=False)
    fresh = fresh_service(tmp_path)
    for repo, command in ((service, ["scripts/contracts-gen"]), (service, ["scripts/bump-contracts", "v0.2.0"]),
                          (service, ["scripts/check-contracts-bump", "HEAD"]),
                          (fresh, ["scripts/add-contracts", ts_service.contracts.url, "v0.1.0"])):
        result = run(repo, *command, check=False)
        assert result.returncode == 1, (command, result.returncode, result.stderr)
        assert "not installed here: buf" in result.stderr, (command, result.stderr)
        assert "npm ci --ignore-scripts" in result.stderr
        assert "do not compile" not in result.stderr
        assert clean(repo), command
    assert not (fresh / "contracts").exists()


def test_a_failed_add_takes_back_the_submodule(ts_service: Service, tmp_path):
    # A failure after the submodule is added (here: Maven cannot fetch validate.proto) leaves
    # nothing behind, so the command can simply run again.
    fresh = fresh_service(tmp_path, tools_from=ts_service.base)
    env = {"PROTOVALIDATE_VERSION": "0.0.0-no-such-release", "CONTRACTS_MVN": "mvn -o"}

    result = run(fresh, "scripts/add-contracts", ts_service.contracts.url, "v0.1.0", check=False, env=env)

    assert result.returncode == 1
    assert "could not fetch build.buf:protovalidate:0.0.0-no-such-release" in result.stderr
    assert "nothing was added" in result.stderr
    assert clean(fresh)
    assert not (fresh / "contracts").exists() and not (fresh / ".gitmodules").exists()
    assert run(fresh, "scripts/add-contracts", ts_service.contracts.url, "v0.1.0", check=False).returncode == 0


def test_maven_colour_codes_stay_out_of_logs_and_annotations(ts_service: Service, tmp_path):
    # Debian's Maven 3.8 (the machine's `mvn`) colours its output even in batch mode into a
    # pipe: the premise, checked with the very command the scripts run.
    debian_mvn = "/usr/bin/mvn"
    goal = ["org.apache.maven.plugins:maven-dependency-plugin:3.9.0:unpack", "-o",
            "-Dartifact=build.buf:protovalidate:0.0.0-no-such-release:jar"]
    raw = run(tmp_path, debian_mvn, "-B", "-q", "-Dstyle.color=never", *goal, check=False)
    assert "\x1b[" in raw.stdout + raw.stderr
    service = ts_service.clone(tmp_path / "service")
    run(service, "rm", "-rf", ".contracts-deps")
    env = {"CONTRACTS_MVN": f"{debian_mvn} -o"}

    fetched = run(service, "scripts/contracts-gen", env=env)
    failed = run(service, "scripts/contracts-gen", check=False,
                 env={**env, "PROTOVALIDATE_VERSION": "0.0.0-no-such-release", "GITHUB_ACTIONS": "true"})

    assert "fetching buf/validate/validate.proto" in fetched.stderr
    assert failed.returncode == 1
    assert "[ERROR]" in failed.stderr  # Maven's own words are kept
    assert "::error::could not fetch build.buf:protovalidate:0.0.0-no-such-release" in failed.stdout
    for output in (fetched.stdout, fetched.stderr, failed.stdout, failed.stderr):
        assert "\x1b" not in output, output


def test_a_clone_builds_as_the_readme_says_and_regenerates_without_drift(ts_service: Service, tmp_path):
    block = readme_block(TEMPLATE / "README.md", "A clone of the service")
    # With a default git config the clone cannot take a submodule from a local path (the
    # premise), and the README's note for local repositories is what makes it work.
    as_written = run_block(tmp_path, block, check=False, **{"<service URL>": ts_service.url})
    assert as_written.returncode != 0 and "transport 'file' not allowed" in as_written.stderr
    run(tmp_path, "rm", "-rf", "my-service")
    local = re.search(r"`(git -c protocol\.file\.allow=always clone --recurse-submodules) <service URL>`",
                      (TEMPLATE / "scripts/README.md").read_text()).group(1)
    block = block.replace("git clone --recurse-submodules", local)
    run_block(tmp_path, block, **{"<service URL>": ts_service.url})

    clone = tmp_path / "my-service"
    assert checked_out(clone) == pin(ts_service.base)
    assert (clone / "dist/contracts.js").is_file()
    # The block installed the tools every command needs; what the clone generates from its own
    # checkout is exactly what was committed.
    run(clone, "scripts/contracts-gen")
    assert git(clone, "status", "--porcelain") == ""
    assert 'CONTRACTS_VERSION = "v0.1.0"' in contracts_version(clone)


def test_a_clone_without_submodules_is_told_to_init_them(ts_service: Service, tmp_path):
    flat = tmp_path / "flat-clone"
    run(tmp_path, "git", "clone", "-q", ts_service.url, str(flat))
    assert list((flat / "contracts").iterdir()) == []
    for command in (["scripts/bump-contracts", "v0.2.0"], ["scripts/contracts-gen"],
                    ["scripts/check-contracts-bump", "HEAD"]):
        result = run(flat, *command, check=False)
        assert result.returncode == 1, command
        # The contracts are on a local path: the command names git's setting that allows it.
        assert "run git -c protocol.file.allow=always submodule update --init" in result.stderr, (command, result.stderr)
    # Nothing was fetched into the service's own repository, nothing written.
    assert git(flat, "tag", "--list") == ""
    assert git(flat, "status", "--porcelain") == ""
    # What git says without the setting, and what it does with it.
    plain = run(flat, "git", "submodule", "update", "--init", check=False)
    assert plain.returncode != 0 and "transport 'file' not allowed" in plain.stderr
    git(flat, *ALLOW_FILE, "submodule", "update", "-q", "--init")
    assert checked_out(flat) == pin(flat)
    # Contracts behind a real URL: the plain advice.
    git(flat, "config", "-f", ".gitmodules", "submodule.contracts.url", "https://git.example.invalid/contracts.git")
    run(flat, "rm", "-rf", "contracts")
    (flat / "contracts").mkdir()
    result = run(flat, "scripts/contracts-gen", check=False)
    assert "(a clone made without --recurse-submodules?): run git submodule update --init" in result.stderr
    assert "protocol.file.allow" not in result.stderr


def test_pull_request_check_passes_a_safe_bump(ts_history: Service, tmp_path):
    clone = ts_history.clone(tmp_path / "service", branch="history")
    safe_bump = git(clone, "log", "--format=%H", "--grep=^Bump contracts to v0.2.0$")
    git(clone, "checkout", "-q", "--recurse-submodules", safe_bump)

    result = check(clone, f"{safe_bump}~1")

    assert result.returncode == 0, result.stdout + result.stderr
    assert "contracts: v0.1.0 (" in result.stdout and ") -> v0.2.0 (" in result.stdout
    assert "buf breaking: no breaking change" in result.stdout
    assert "generated code matches the pin" in result.stdout
    assert "now built against v0.2.0" in result.stdout


def test_pull_request_check_of_an_override_bump(ts_history: Service, tmp_path):
    clone = ts_history.clone(tmp_path / "service", branch="history")

    refused = check(clone, "HEAD~1")
    assert refused.returncode == 1
    assert "FIELD_NO_DELETE" in refused.stdout
    assert "does not accept overrides" in refused.stderr

    accepted = check(clone, "HEAD~1", "--allow-override")
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr
    assert f"accepted by override: {OVERRIDE_REASON}" in accepted.stderr


def move_by_hand(clone: pathlib.Path, to: str) -> str:
    """The pin moved the way the README warns against: checkout, regenerate, commit -a."""
    git(clone / "contracts", "checkout", "-q", to)
    run(clone, "scripts/contracts-gen")
    git(clone, "add", "-A")
    git(clone, "commit", "-qm", "move the pin without the bump command")
    return git(clone, "rev-parse", "HEAD")


def test_a_breaking_pin_moved_by_hand_is_refused_and_the_way_back_it_prints_works(ts_history: Service, tmp_path):
    clone = ts_history.clone(tmp_path / "service", branch="history")
    git(clone, "checkout", "-q", "--recurse-submodules", "-b", "by-hand", "HEAD~1")
    base = git(clone, "rev-parse", "HEAD")
    moved = move_by_hand(clone, "v0.3.0")

    result = check(clone, base, "--allow-override")

    assert result.returncode == 1
    assert "no Contracts-Breaking-Override reason" in result.stderr
    assert f"Commit {moved[:12]} moved it without the command" in result.stderr
    # The reason cannot go on a bump that moves nothing: refused, not dropped.
    again = bump(clone, "v0.3.0", "--allow-breaking", OVERRIDE_REASON)
    assert again.returncode == 1
    assert f"moved there by commit {moved[:12]}" in again.stderr
    assert "no bump to record the --allow-breaking reason on" in again.stderr
    assert git(clone, "rev-parse", "HEAD") == moved
    # Both print the same way back; followed as printed, with a reason, the check passes.
    steps = re.findall(r"^  ((?:git|scripts/).*)$", again.stderr, re.M)
    assert steps == re.findall(r"^  ((?:git|scripts/).*)$", result.stderr, re.M) and len(steps) == 4, again.stderr
    for step in steps:
        run_block(clone, step.replace('"REASON"', f'"{OVERRIDE_REASON}"'))
    assert pin(clone) == ts_history.contracts.commit("v0.3.0")
    passed = check(clone, base, "--allow-override")
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert f"accepted by override: {OVERRIDE_REASON}" in passed.stderr


def test_pull_request_check_finds_stale_generated_code(ts_history: Service, tmp_path):
    clone = ts_history.clone(tmp_path / "service", branch="history")
    first = git(clone, "log", "--format=%H", "--grep=^Consume the contracts at v0.1.0")
    git(clone, "checkout", "-q", "--recurse-submodules", "-b", "stale", first)
    git(clone / "contracts", "checkout", "-q", "v0.2.0")
    git(clone, "commit", "-qam", "move the pin, forget to regenerate")  # -a stages the gitlink only

    result = check(clone, "HEAD~1")

    assert result.returncode == 1
    assert "buf breaking: no breaking change" in result.stdout
    assert "generated code does not match the contracts pin" in result.stderr
    assert "src/gen/acme/person/v1/person_pb.ts" in result.stderr
    # The check puts the generated code back as it was.
    assert git(clone, "status", "--porcelain", "--", "src/gen") == ""


def test_pull_request_check_ignores_files_that_are_not_generated(ts_history: Service, tmp_path):
    clone = ts_history.clone(tmp_path / "service", branch="history")
    (clone / "notes.txt").write_text("a note, not committed\n")
    readme = clone / "README.md"
    readme.write_text(readme.read_text() + "\nan edit in progress\n")

    result = check(clone, "HEAD~1", "--allow-override")

    assert result.returncode == 0, result.stdout + result.stderr
    assert "generated code matches the pin" in result.stdout


def test_pull_request_check_refuses_untracked_generated_files_and_says_move_them(ts_history: Service, tmp_path):
    clone = ts_history.clone(tmp_path / "service", branch="history")
    (clone / "src/gen/handwritten.ts").write_text("export const mine = 1;\n")

    result = check(clone, "HEAD~1", "--allow-override", env={"GITHUB_ACTIONS": "true"})

    assert result.returncode == 1
    assert "move them out of it" in result.stderr and "?? src/gen/handwritten.ts" in result.stderr
    assert "commit or stash" not in result.stderr
    assert (clone / "src/gen/handwritten.ts").is_file()
    # In Actions the whole message is one annotation, its line breaks escaped.
    errors = [line for line in result.stdout.splitlines() if line.startswith("::error::")]
    assert len(errors) == 1, result.stdout
    assert "%0A- untracked files in src/gen" in errors[0]


def test_pull_request_check_names_the_branch_the_submodule_is_on(ts_history: Service, tmp_path):
    clone = ts_history.clone(tmp_path / "service", branch="history")
    git(clone / "contracts", "checkout", "-q", "-b", "mine", "origin/preview")

    result = check(clone, "HEAD~1", "--allow-override")

    assert result.returncode == 1
    assert "on branch 'mine', but HEAD pins v0.3.0" in result.stderr
    assert "git submodule update -- contracts" in result.stderr


def test_pull_request_check_refuses_an_override_reason_typed_by_hand(ts_history: Service, tmp_path):
    # The README says an override is recorded by bump-contracts: a commit that moves the pin
    # with a hand-written trailer does not count.
    clone = ts_history.clone(tmp_path / "service", branch="history")
    git(clone, "checkout", "-q", "--recurse-submodules", "-b", "typed-by-hand", "HEAD~1")
    git(clone / "contracts", "checkout", "-q", "v0.3.0")
    run(clone, "scripts/contracts-gen")
    git(clone, "commit", "-qam", "Bump contracts to v0.3.0\n\nContracts-Breaking-Override: trust me")

    result = check(clone, "HEAD~1", "--allow-override")

    assert result.returncode == 1
    assert "was not made by scripts/bump-contracts" in result.stderr
    assert "no Contracts-Breaking-Override reason recorded by scripts/bump-contracts" in result.stderr


def bump_check_step() -> str:
    """The shell of the reusable workflow's check step, as GitHub runs it."""
    workflow = yaml.safe_load((ROOT / ".github/workflows/submodule-bump-check.yml").read_text())
    [step] = [s for s in workflow["jobs"]["check"]["steps"] if s.get("name", "").startswith("Check the contracts bump")]
    return step["run"]


def test_the_workflow_judges_a_pull_request_against_the_base_branch_as_merged(ts_history: Service, tmp_path):
    # A pull request opened before main's overridden breaking bump, that moves no pin itself.
    # GitHub checks out its merge commit; the event's base.sha is where the pull request began,
    # and the workflow judged main's bump since then as the pull request's own: refused in a
    # repository that takes no overrides.
    clone = ts_history.clone(tmp_path / "service", branch="history")
    began = git(clone, "rev-parse", "HEAD~1")
    git(clone, "checkout", "-q", "--recurse-submodules", "-b", "pr", began)
    (clone / "NOTES.md").write_text("a change that is not the contracts\n")
    git(clone, "add", "NOTES.md")
    git(clone, "commit", "-qm", "notes")
    git(clone, "checkout", "-q", "--recurse-submodules", "history")
    git(clone, "merge", "-q", "--no-ff", "-m", "Merge pull request #7", "pr")
    git(clone, "submodule", "update", "-q")
    assert pin(clone, began) != pin(clone)

    result = run(clone, "bash", "-c", bump_check_step(), check=False, env={
        "EVENT_NAME": "pull_request", "BASE_SHA": began, "CONTRACTS_DIR": "contracts",
        "CHECK_COMMAND": "scripts/check-contracts-bump", "ALLOW_OVERRIDE": "false"})

    assert result.returncode == 0, result.stdout + result.stderr
    assert "pin unchanged" in result.stdout
