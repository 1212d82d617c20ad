"""Every relative link and every repository path a README or docs/ page names exists.

A link is followed relative to its file, and an anchor must name a heading of the file it
points at. A backticked path is a repository path when it starts with one of the repository's
top-level folders; it must exist from the repository's root or from the document's own folder
or from a folder above it (a template's README names paths inside the service repository made
from it). Git-ignored paths are build outputs that exist only after a build and are not checked.
"""

import re

import pytest

from docs import ROOT, anchors, documents, ignored, prose, tracked

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
CODE = re.compile(r"`([^`\s]+)`")
TOP = tuple(sorted({str(p.relative_to(ROOT)).split("/")[0] + "/" for p in tracked("*/*")}))
# A placeholder or pattern, not a path: `gen/<lang>`, `proto/acme/*/v*`, `a/{b,c}`, `x/…`.
NOT_A_PATH = re.compile(r"[<>*{}…$|]")
# Documents that speak of a service repository made from a template, not of this one: their
# paths are looked up in the templates.
SERVICE_ROOTS = {
    "consumers/submodule-scripts/README.md": ("consumers/submodule-template-ts", "consumers/submodule-template-java"),
    "docs/submodule.md": ("consumers/submodule-template-ts", "consumers/submodule-template-java"),
}


def rel(path):
    return path.relative_to(ROOT)


def broken_links(doc):
    for number, line in prose(doc):
        for target in LINK.findall(line):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):
                continue  # a URL
            file, _, anchor = target.partition("#")
            dest = (doc.parent / file).resolve() if file else doc
            if not dest.exists():
                yield f"{rel(doc)}:{number}: link to {target}: no such file"
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                yield f"{rel(doc)}:{number}: link to {target}: {rel(dest)} has no heading #{anchor}"


def missing_paths(doc):
    bases = [ROOT, *[d for d in doc.parents if ROOT in d.parents],
             *[ROOT / s for s in SERVICE_ROOTS.get(str(rel(doc)), ())]]
    for number, line in prose(doc):
        for token in CODE.findall(line):
            path = token.rstrip(".,;:")
            if not path.startswith(TOP) or NOT_A_PATH.search(path):
                continue
            if any((base / path).exists() for base in bases) or ignored(path):
                continue
            yield f"{rel(doc)}:{number}: `{token}` does not exist"


@pytest.mark.parametrize("doc", documents(), ids=lambda d: str(rel(d)))
def test_relative_links_resolve(doc):
    problems = list(broken_links(doc))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("doc", documents(), ids=lambda d: str(rel(d)))
def test_backticked_repository_paths_exist(doc):
    problems = list(missing_paths(doc))
    assert not problems, "\n".join(problems)
