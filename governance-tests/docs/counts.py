"""The counts the documentation states, each tied to the source it counts.

A row is (document, pattern, count, comparison): `pattern`'s first group is the number the
document states (commas allowed), `count()` computes it from the source, and the comparison is
"=" for a plain figure or ">" for "over N". A document that no longer states a row's figure
fails too, so a row cannot outlive its sentence.
"""

import functools
import importlib.util
import re
import subprocess
import sys

from docs import ROOT


@functools.cache
def schema_edits():
    """The schema-change suite's table of proto edits (governance-tests/schema-changes/edits.py)."""
    spec = importlib.util.spec_from_file_location("edits", ROOT / "governance-tests/schema-changes/edits.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def edits(*lists: str):
    return lambda: sum(len(getattr(schema_edits(), name)) for name in lists)


ALL_EDITS = ("BREAKING", "LINT_AND_FORMAT", "SAFE", "RULES_BREAKING", "RULES_SAFE")


def collected(suite: str):
    """How many tests pytest collects in a governance-tests suite (collection only: seconds)."""
    def count():
        out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
                             cwd=ROOT / "governance-tests" / suite, check=True, capture_output=True, text=True).stdout
        return int(re.search(r"(\d+) tests? collected", out).group(1))
    return count


def rule_diff_cases():
    """The rule diff's table-driven cases: one `{"name", base, head, want}` line each."""
    text = (ROOT / "gate/rulediff/diff_test.go").read_text()
    return len(re.findall(r'(?m)^\s*\{"', text))


def make_argument(target: str):
    """The number a Makefile target passes to its script (`@scripts/x.sh 20000`)."""
    def count():
        text = (ROOT / "Makefile").read_text()
        return int(re.search(rf"(?m)^{re.escape(target)}:.*\n\t@\S+ (\d+)", text).group(1))
    return count


ROWS = [
    ("Makefile", r"The schema-change suite: (\d+) proto edits", edits(*ALL_EDITS), "="),
    ("README.md", r"(\d+) proto edits, each against the real gate", edits(*ALL_EDITS), "="),
    ("docs/tests.md", r"(\d+) concrete proto edits", edits(*ALL_EDITS), "="),
    ("docs/tests.md", r"(\d+) breaking ones", edits("BREAKING"), "="),
    ("docs/tests.md", r"(\d+) lint/format ones", edits("LINT_AND_FORMAT"), "="),
    ("docs/tests.md", r"(\d+) safe ones", edits("SAFE"), "="),
    ("docs/tests.md", r"(\d+) validation-rule changes that break a caller", edits("RULES_BREAKING"), "="),
    ("docs/tests.md", r"and (\d+) that break nobody", edits("RULES_SAFE"), "="),
    ("docs/tests.md", r"passes the same pull-request check \((\d+) tests\)", collected("submodule-consumer"), "="),
    ("docs/tests.md", r"CEL \(over (\d+) cases\)", rule_diff_cases, ">"),
    ("docs/tests.md", r"([\d,]+) inputs per service from Hypothesis", make_argument("test-fuzz"), "="),
    ("docs/tests.md", r"`make fuzz`: ([\d,]+)", make_argument("fuzz"), "="),
    ("Makefile", r"The fuzz suite: ([\d,]+) hostile inputs", make_argument("test-fuzz"), "="),
    ("Makefile", r"The fuzz suite, longer: ([\d,]+) inputs", make_argument("fuzz"), "="),
    # The smoke's count where it is not the Makefile's argument: make test's suite list, the
    # script's and the program's defaults, the suite's page.
    ("scripts/tests/all.sh", r"scripts/tests/fuzz\.sh (\d+)", make_argument("test-fuzz"), "="),
    ("scripts/tests/fuzz.sh", r"FUZZ_INPUTS:-(\d+)", make_argument("test-fuzz"), "="),
    ("fuzz/acme_fuzz/__main__.py", r'"--inputs", type=int, default=([\d_]+)', make_argument("test-fuzz"), "="),
    ("fuzz/README.md", r"make test-fuzz +# ([\d,]+) inputs per service", make_argument("test-fuzz"), "="),
    ("fuzz/README.md", r"make fuzz +# ([\d,]+) per service", make_argument("fuzz"), "="),
]

# A figure of this kind in any document must be claimed by a row above, so a new sentence that
# counts edits, tests or cases cannot go unchecked.
COUNT_WORDS = re.compile(r"\b\d[\d,]* (?:concrete )?(?:proto )?(?:edits|tests|cases)\b")
