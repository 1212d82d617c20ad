"""What the drift tests read: the repository's documentation, as git tracks it.

The documents are every tracked README.md and every page under docs/; the Makefile's help is
its `target: ## text` comments, the lines `make help` prints.
"""

import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]


def tracked(*patterns: str) -> list[pathlib.Path]:
    out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "--", *patterns],
                         check=True, capture_output=True, text=True).stdout
    return [ROOT / p for p in out.splitlines() if (ROOT / p).is_file()]


def documents() -> list[pathlib.Path]:
    return sorted(set(tracked("README.md", "*/README.md", "docs/*.md")))


def prose(path: pathlib.Path) -> list[tuple[int, str]]:
    """(line number, line) outside fenced code blocks: what a reader follows as text."""
    lines, fenced = [], False
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((number, line))
    return lines


def makefile_help() -> str:
    text = (ROOT / "Makefile").read_text()
    return "\n".join(m.group(0) for m in re.finditer(r"(?m)^[a-z-]+:.*## .*$", text))


def anchors(path: pathlib.Path) -> set[str]:
    """The anchors GitHub gives a Markdown file's headings."""
    out = set()
    for _, line in prose(path):
        m = re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)
        if m:
            slug = re.sub(r"[^\w\- ]", "", m.group(1).strip().lower()).replace(" ", "-")
            out.add(slug)
    return out


def ignored(path: str) -> bool:
    """Whether git ignores a path: a build output (dist/, target/, .tmp/), there only after a build."""
    # A pattern such as `dist/` matches only a folder, which a path not built yet is not.
    return any(subprocess.run(["git", "-C", str(ROOT), "check-ignore", "-q", "--no-index", p]).returncode == 0
               for p in (path, path.rstrip("/") + "/"))
