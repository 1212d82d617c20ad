"""Every count the documentation states that a source can confirm equals the source's count."""

import re

import pytest

from counts import COUNT_WORDS, ROWS
from docs import ROOT, documents, makefile_help


def text_of(name: str) -> str:
    return makefile_help() if name == "Makefile" else (ROOT / name).read_text()


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r[0]}: {r[1]}")
def test_stated_count_matches_its_source(row):
    name, pattern, count, comparison = row
    found = re.search(pattern, text_of(name))
    assert found, f"{name} no longer says /{pattern}/: update or remove its row in counts.py"
    stated, actual = int(found.group(1).replace(",", "")), count()
    if comparison == ">":
        assert actual > stated, f"{name} says over {stated}; the source has {actual}"
    else:
        assert stated == actual, f"{name} says {stated} (/{pattern}/); the source has {actual}"


def test_every_count_of_edits_tests_or_cases_is_checked():
    unchecked = []
    for path in [*documents(), ROOT / "Makefile"]:
        name = str(path.relative_to(ROOT))
        text = text_of(name)
        spans = [m.span() for n, pattern, _, _ in ROWS if n == name for m in re.finditer(pattern, text)]
        for m in COUNT_WORDS.finditer(text):
            if not any(s <= m.start() < e for s, e in spans):
                unchecked.append(f"{name}: '{m.group(0)}' has no row in counts.py")
    assert not unchecked, "\n".join(unchecked)
