"""What the templates' documentation tells a new user, checked against what is so: the order of
the set-up steps, every link of a template copied out on its own, the workflow setting it
ships, the language it speaks, and the commands of the contracts repository it sends people to.
The steps themselves are run as written by the fixtures and the clone tests."""

import pathlib
import re

import pytest
import yaml

from conftest import JAVA_TEMPLATE, ROOT, TEMPLATE, readme_block, run

TEMPLATES = [pytest.param(TEMPLATE, id="ts"), pytest.param(JAVA_TEMPLATE, id="java")]
SCRIPTS = ["add-contracts", "bump-contracts", "check-contracts-bump", "contracts-lib.sh", "README.md"]


def commands(block: str) -> list[str]:
    """The commands of a README block, comments dropped, `a && b` split."""
    out = []
    for line in block.splitlines():
        line = re.sub(r"\s+#.*$", "", line).strip()
        out += [part.strip() for part in line.split("&&") if part.strip()]
    return out


@pytest.mark.parametrize("template", TEMPLATES)
@pytest.mark.parametrize("heading", ["Set up a service repository", "A clone of the service"])
def test_each_block_enters_the_service_and_installs_the_tools_before_a_command(template, heading):
    steps = commands(readme_block(template / "README.md", heading))
    made = next(i for i, step in enumerate(steps) if step.startswith(("cp ", "git clone")))
    assert steps[made].split()[-1].rstrip("/") == "my-service", steps[made]
    assert steps[made + 1] == "cd my-service", steps
    scripts = [i for i, step in enumerate(steps) if step.startswith("scripts/")]
    if scripts:
        install = steps.index("npm ci --ignore-scripts")
        assert install < scripts[0], steps


@pytest.mark.parametrize("template", TEMPLATES)
def test_the_docs_say_which_allow_override_the_workflow_ships(template):
    workflow = (template / ".github/workflows/contracts.yml").read_text()
    shipped = yaml.safe_load(workflow)["jobs"]["contracts"]["with"]["allow-override"]
    assert f"ships `allow-override: {str(shipped).lower()}`" in (template / "README.md").read_text()
    # And the workflow says what it means, right above it.
    assert re.search(r"#[^\n]*\n\s+allow-override:", workflow)


def slug(heading: str) -> str:
    """GitHub's anchor for a Markdown heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@pytest.mark.parametrize("template", TEMPLATES)
def test_a_template_copied_out_alone_has_everything_its_docs_link(template, contracts_checkout, tmp_path):
    # Copied as its README says, into a folder with nothing beside it: the links it follows
    # must be inside the copy, and the copy must hold files, not links.
    copy = tmp_path / "alone" / "my-service"
    copy.parent.mkdir()
    run(tmp_path, "cp", "-rL", f"{contracts_checkout}/consumers/{template.name}/.", str(copy))
    assert not [p for p in copy.rglob("*") if p.is_symlink()]
    docs = sorted(copy.rglob("*.md"))
    assert copy / "scripts/README.md" in docs
    for doc in docs:
        text = doc.read_text()
        assert not re.search(r"(?<!\.)\.\./", text), f"{doc.relative_to(copy)} names a path outside the template"
        for target in re.findall(r"\]\(([^)]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            linked = (doc.parent / path).resolve() if path else doc
            assert linked.is_relative_to(copy) and linked.exists(), f"{doc.relative_to(copy)}: {target}"
            if anchor:
                headings = re.findall(r"^#+ (.*)$", linked.read_text(), re.M)
                assert anchor in [slug(h) for h in headings], f"{doc.relative_to(copy)}: {target}"


TYPESCRIPT_ONLY = re.compile(r"\bTypeScript\b|\btsc\b|protoc-gen-es|npm run build|\bsrc/gen\b|contracts_version\.ts"
                             r"|submodule-template-ts")


def test_the_java_template_and_the_shared_workflow_speak_no_typescript():
    texts = [p for p in JAVA_TEMPLATE.rglob("*") if p.is_file() and p.name != "package-lock.json"]
    texts.append(ROOT / ".github/workflows/submodule-bump-check.yml")
    found = [f"{p.relative_to(ROOT)}:{n}: {line.strip()}" for p in texts
             for n, line in enumerate(p.read_text().splitlines(), 1) if TYPESCRIPT_ONLY.search(line)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("template", TEMPLATES)
def test_the_shared_commands_are_links_to_one_implementation(template):
    # The templates carry the shared commands and their README as links into submodule-scripts
    # (copied as files by cp -rL): one implementation, never two copies that drift.
    for name in SCRIPTS:
        path = template / "scripts" / name
        assert path.is_symlink() and path.resolve() == (ROOT / "consumers/submodule-scripts" / name), path


def test_the_release_commands_the_docs_name_exist():
    # The docs send a new user to the contracts repository's release commands: they must be
    # there, with the options named.
    docs = (ROOT / "consumers/submodule-scripts/README.md").read_text()
    release = (ROOT / "scripts/release/release.sh").read_text()
    assert "scripts/release/release.sh --no-publish" in docs and "release.sh --allow-breaking" in docs
    for option in ("--no-publish", "--allow-breaking"):
        assert re.search(rf"^\s*{option}\)", release, re.M), f"release.sh takes no {option}"
    makefile = (ROOT / "Makefile").read_text()
    assert 'make release REASON="' in docs
    assert re.search(r"^release:.*\n\t.*release\.sh \$\(if \$\(REASON\),--allow-breaking", makefile, re.M)
    assert "make registries" in docs and re.search(r"^registries:", makefile, re.M)
    assert 'eval "$(scripts/release/registries.sh env)"' in docs
    assert re.search(r"^\s*env\)", (ROOT / "scripts/release/registries.sh").read_text(), re.M)
    assert "proto/breaking-exceptions.yaml" in docs and (ROOT / "proto/breaking-exceptions.yaml").is_file()


@pytest.mark.parametrize("template", TEMPLATES)
def test_the_docs_document_every_option_and_how_to_pin_the_workflow(template):
    docs = (template / "README.md").read_text() + (template / "scripts/README.md").read_text()
    for script in sorted((template / "scripts").iterdir()):
        if script.suffix == ".md":
            continue
        # The options each script's argument loop takes (its case patterns), --help aside.
        taken = re.findall(r"^\s*(?:-\w \| )?(--[a-z][a-z-]+)[=*]*\)", script.read_text(), re.M)
        assert taken or script.name not in ("bump-contracts", "check-contracts-bump"), script.name
        for option in sorted(set(taken) - {"--help"}):
            assert option in docs, f"{script.name}'s {option} is not in the docs"
    assert "full commit SHA" in docs
    assert "full commit SHA" in (template / ".github/workflows/contracts.yml").read_text()
