"""breaking-report.py — every breaking finding of a change, judged against the exceptions file.

    breaking-report.py --buf BUF.jsonl --rules RULES.jsonl --base BASE.binpb --head HEAD.binpb
                       --exceptions proto/breaking-exceptions.yaml [--base-exceptions FILE]
                       [--markdown REPORT.md] [--annotations]

The findings come from buf breaking (--error-format=json) and validation-diff.mjs (--format
json). Each is pinned to the element it concerns — the innermost declaration at its position in
the head image (or the base image, for what the change deleted) — so an exception names exactly
one element and one rule. A finding is accepted only by an unexpired exception with that
element and that rule. The exceptions file itself is judged too: an entry that is malformed,
names an unknown rule or an element that exists in neither image, or has expired fails the gate
(one line each, naming the entry), and so does an entry that no finding used any more — so the
file cleans itself. Prints the report (and writes it as Markdown for a pull request); exit 1 when
a finding is refused or the exceptions file is wrong, 0 otherwise.
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import pathlib
import re
import subprocess
import sys

import yaml
from google.protobuf import descriptor_pb2

OWN_RULE = re.compile(r"^VALIDATE_[A-Z0-9_]+_(TIGHTENED|LOOSENED|CHANGED)$")
ENTRY_KEYS = {"element", "rule", "reason", "expires", "review"}


@dataclasses.dataclass
class Finding:
    file: str
    line: int
    column: int
    rule: str
    message: str
    element: str = ""
    source: str = "buf"
    exception: dict | None = None


def main() -> int:
    parser = argparse.ArgumentParser(prog="breaking-report.py")
    parser.add_argument("--buf", type=pathlib.Path, required=True)
    parser.add_argument("--rules", type=pathlib.Path, required=True)
    parser.add_argument("--base", type=pathlib.Path, required=True)
    parser.add_argument("--head", type=pathlib.Path, required=True)
    parser.add_argument("--exceptions", type=pathlib.Path, required=True)
    parser.add_argument("--base-exceptions", type=pathlib.Path)
    parser.add_argument("--markdown", type=pathlib.Path)
    parser.add_argument("--summary-json", type=pathlib.Path, help="what a release needs: the bump, elements added and removed, findings")
    parser.add_argument("--annotations", action="store_true", help="GitHub Actions annotations on the proto lines")
    parser.add_argument("--proto-root", default="proto", help="the module folder buf prefixes its paths with")
    args = parser.parse_args()

    base, head = Image(args.base), Image(args.head)
    findings = [buf_finding(json.loads(line), args.proto_root) for line in lines(args.buf)]
    findings += [rules_finding(json.loads(line)) for line in lines(args.rules)]
    for f in findings:
        f.element = f.element or head.element_at(f.file, f.line, f.column) or base.element_at(f.file, f.line, f.column) or f.file

    entries, problems = load_exceptions(args.exceptions, known_rules(), head, base)
    today = datetime.datetime.now(datetime.timezone.utc).date()
    used = set()
    for f in findings:
        for i, entry in enumerate(entries):
            if entry["element"] == f.element and entry["rule"] == f.rule and entry["expires"] >= today:
                f.exception = entry
                used.add(i)
    for i, entry in enumerate(entries):
        where = f"{args.exceptions}: entry {i + 1} ({entry['element']}, {entry['rule']})"
        if entry["expires"] < today:
            problems.append(f"{where} expired on {entry['expires']}: renew it with a new review, or make the change safe")
        elif i not in used:
            problems.append(f"{where} matches no finding any more: delete it")

    edits = exception_edits(args.base_exceptions, args.exceptions)
    refused = [f for f in findings if not f.exception]
    report = Report(findings, problems, edits, implied_bump(base, head, findings))
    print(report.text())
    if args.annotations:
        for f in refused:
            print(f"::error file={args.proto_root}/{f.file},line={f.line},col={f.column}::{f.rule}: {f.message}")
        for f in findings:
            if f.exception:
                print(f"::notice file={args.proto_root}/{f.file},line={f.line},col={f.column}::{f.rule} accepted by exception: "
                      f"{f.exception['reason']}")
    if args.markdown:
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text(report.markdown())
    if args.summary_json:
        args.summary_json.write_text(json.dumps({
            "bump": bump_kind(base, head, findings),
            "added": sorted(head.names - base.names), "removed": sorted(base.names - head.names),
            "findings": [{"rule": f.rule, "element": f.element, "message": f.message, "accepted": bool(f.exception)}
                         for f in findings],
            "problems": problems}, indent=1))
    return 1 if refused or problems else 0


def lines(path: pathlib.Path) -> list[str]:
    return [l for l in path.read_text().splitlines() if l.strip()] if path.exists() else []


def buf_finding(d: dict, proto_root: str) -> Finding:
    file = d.get("path", "")
    file = file[len(proto_root) + 1:] if file.startswith(proto_root + "/") else file
    return Finding(file, int(d.get("start_line", 0)), int(d.get("start_column", 0)), d.get("type", ""), d.get("message", ""))


def rules_finding(d: dict) -> Finding:
    return Finding(d["file"], d["line"], d["column"], d["rule"], d["message"], d.get("element", ""), "rules")


def known_rules() -> set[str]:
    """buf's breaking rule ids, as this buf knows them."""
    out = subprocess.run(["buf", "config", "ls-breaking-rules", "--format", "json", "--include-deprecated"],
                         capture_output=True, text=True, check=True).stdout
    return {json.loads(l)["id"] for l in out.splitlines() if l.strip()}


class Image:
    """The declarations of a buf image by fully-qualified name, with their source spans."""

    def __init__(self, path: pathlib.Path):
        self.names: set[str] = set()
        self.spans: dict[str, list[tuple[tuple[int, int, int, int], str]]] = {}
        self.files: dict[str, tuple] = {}
        fds = descriptor_pb2.FileDescriptorSet.FromString(path.read_bytes())
        for file in fds.file:
            if file.name.startswith(("buf/validate/", "google/")):
                continue
            spans = {tuple(l.path): l.span for l in file.source_code_info.location}
            found: list[tuple[tuple[int, int, int, int], str]] = []
            prefix = file.package

            def add(name: str, path: tuple) -> None:
                self.names.add(name)
                span = spans.get(path)
                if span:
                    end_line, end_col = (span[2], span[3]) if len(span) == 4 else (span[0], span[2])
                    found.append(((span[0] + 1, span[1] + 1, end_line + 1, end_col + 1), name))

            def messages(list_, scope: str, path: tuple) -> None:
                for i, m in enumerate(list_):
                    name = f"{scope}.{m.name}"
                    add(name, path + (i,))
                    for j, f in enumerate(m.field):
                        add(f"{name}.{f.name}", path + (i, 2, j))
                    enums(m.enum_type, name, path + (i, 4))
                    messages(m.nested_type, name, path + (i, 3))

            def enums(list_, scope: str, path: tuple) -> None:
                for i, e in enumerate(list_):
                    name = f"{scope}.{e.name}"
                    add(name, path + (i,))
                    for j, v in enumerate(e.value):
                        # Enum values are scoped beside their enum, as in protobuf.
                        add(f"{scope}.{v.name}", path + (i, 2, j))

            messages(file.message_type, prefix, (4,))
            enums(file.enum_type, prefix, (5,))
            for i, s in enumerate(file.service):
                add(f"{prefix}.{s.name}", (6, i))
                for j, m in enumerate(s.method):
                    add(f"{prefix}.{s.name}.{m.name}", (6, i, 2, j))
            self.spans[file.name] = found
            self.names.add(file.name)
            stripped = descriptor_pb2.FileDescriptorProto()
            stripped.CopyFrom(file)
            stripped.ClearField("source_code_info")
            # Comments live in the source info, beside positions that move with any edit.
            comments = tuple(sorted((tuple(l.path), l.leading_comments, l.trailing_comments)
                                    for l in file.source_code_info.location if l.leading_comments or l.trailing_comments))
            self.files[file.name] = (stripped.SerializeToString(deterministic=True), comments)

    def element_at(self, file: str, line: int, column: int) -> str:
        """The innermost declaration whose span holds the position ('' when none does)."""
        best, size = "", None
        for (l0, c0, l1, c1), name in self.spans.get(file, []):
            if (l0, c0) <= (line, column) <= (l1, c1):
                extent = (l1 - l0, c1 - c0)
                if size is None or extent <= size:
                    best, size = name, extent
        return best


def load_exceptions(path: pathlib.Path, buf_rules: set[str], head: Image, base: Image) -> tuple[list[dict], list[str]]:
    """The valid entries, and one line per entry that is not (the gate then fails closed)."""
    if not path.exists():
        return [], []
    try:
        doc = yaml.safe_load(path.read_text()) or {}
    except yaml.YAMLError as e:
        return [], [f"{path}: not YAML: {str(e).splitlines()[0]}"]
    if not isinstance(doc, dict) or set(doc) - {"exceptions"} or not isinstance(doc.get("exceptions", []), list):
        return [], [f"{path}: must be a mapping with one key, exceptions: a list of entries"]
    entries, problems = [], []
    for i, entry in enumerate(doc.get("exceptions") or [], start=1):
        where = f"{path}: entry {i}"
        if not isinstance(entry, dict):
            problems.append(f"{where}: must be a mapping of {', '.join(sorted(ENTRY_KEYS))}")
            continue
        where += f" ({entry.get('element', '?')}, {entry.get('rule', '?')})"
        missing, unknown = ENTRY_KEYS - set(entry), set(entry) - ENTRY_KEYS
        if missing or unknown:
            problems.append(f"{where}: " + "; ".join(
                ([f"missing {', '.join(sorted(missing))}"] if missing else []) + ([f"unknown {', '.join(sorted(unknown))}"] if unknown else [])))
            continue
        expires = entry["expires"]
        if isinstance(expires, str):
            try:
                expires = datetime.date.fromisoformat(expires)
            except ValueError:
                expires = None
        if not isinstance(expires, datetime.date) or isinstance(expires, datetime.datetime):
            problems.append(f"{where}: expires must be a date (YYYY-MM-DD), not {entry['expires']!r}")
        elif entry["rule"] not in buf_rules and not OWN_RULE.match(str(entry["rule"])):
            problems.append(f"{where}: unknown rule {entry['rule']!r} (a buf breaking rule, or the gate's VALIDATE_…)")
        elif str(entry["element"]) not in head.names | base.names:
            problems.append(f"{where}: no element {entry['element']!r} in the contracts (a fully-qualified name, e.g. acme.person.v1.Person.name)")
        elif not str(entry["reason"]).strip() or not str(entry["review"]).startswith("https://"):
            problems.append(f"{where}: needs a reason and a review link (https://…)")
        else:
            entries.append({**entry, "expires": expires})
    return entries, problems


def exception_edits(before: pathlib.Path | None, after: pathlib.Path) -> list[str]:
    """Entries added to or removed from the exceptions file by this change, as +/- lines."""
    def keyed(path):
        if not path or not path.exists():
            return {}
        try:
            items = (yaml.safe_load(path.read_text()) or {}).get("exceptions") or []
        except (yaml.YAMLError, AttributeError):
            return {}
        return {f"{e.get('element')} {e.get('rule')} (until {e.get('expires')}): {e.get('reason')}": e
                for e in items if isinstance(e, dict)}
    old, new = keyed(before), keyed(after)
    return [f"+ {k}" for k in new if k not in old] + [f"- {k}" for k in old if k not in new]


def bump_kind(base: Image, head: Image, findings: list[Finding]) -> str:
    """breaking, additions, patch (comments or options only) or none."""
    if findings:
        return "breaking"
    if head.names - base.names:
        return "additions"
    return "patch" if head.files != base.files else "none"


def implied_bump(base: Image, head: Image, findings: list[Finding]) -> str:
    """What the change means for the SDKs' version (semver; while 0.x, a break is a minor)."""
    return {
        "breaking": "breaking: the next major version (while 0.x: the next minor)",
        "additions": "additions: the next minor version",
        "patch": "comments or options only: the next patch version",
        "none": "no change to the contracts: no release",
    }[bump_kind(base, head, findings)]


@dataclasses.dataclass
class Report:
    findings: list[Finding]
    problems: list[str]
    edits: list[str]
    bump: str

    def text(self) -> str:
        out = []
        for f in self.findings:
            verdict = (f"accepted by exception until {f.exception['expires']}: {f.exception['reason']} ({f.exception['review']})"
                       if f.exception else "refused")
            out.append(f"{f.file}:{f.line}:{f.column}:{f.rule} {f.message} [{f.element}] — {verdict}")
        out += [f"exceptions file: {p}" for p in self.problems]
        out += [f"exceptions file changed: {e}" for e in self.edits]
        accepted = sum(1 for f in self.findings if f.exception)
        out.append(f"breaking changes: {len(self.findings)} found ({sum(f.source == 'buf' for f in self.findings)} by buf, "
                   f"{sum(f.source == 'rules' for f in self.findings)} in validation rules), {accepted} accepted by "
                   f"exception, {len(self.findings) - accepted} refused; version: {self.bump}")
        return "\n".join(out)

    def markdown(self) -> str:
        refused = [f for f in self.findings if not f.exception]
        accepted = [f for f in self.findings if f.exception]
        verdict = (f"❌ {len(refused)} refused" + (", the exceptions file is wrong" if self.problems else "")
                   if refused or self.problems else f"✅ none refused ({len(accepted)} accepted by exception)")
        out = ["<!-- contracts-gate-report -->", "## Contracts gate", "",
               f"**Breaking changes:** {verdict}  ", f"**Version this change implies:** {self.bump}", ""]
        by_rule: dict[str, int] = {}
        for f in self.findings:
            by_rule[f.rule] = by_rule.get(f.rule, 0) + 1
        if by_rule:
            out += ["| rule | findings |", "|---|---:|"] + [f"| `{r}` | {n} |" for r, n in sorted(by_rule.items())] + [""]
        if refused:
            out += ["### Refused", ""] + [f"- `{f.file}:{f.line}` `{f.rule}` `{f.element}`: {f.message}" for f in refused] + [""]
        if accepted:
            out += ["### Accepted by exception", ""] + [
                f"- `{f.element}` `{f.rule}`: {f.exception['reason']} (until {f.exception['expires']}, {f.exception['review']})"
                for f in accepted] + [""]
        if self.problems:
            out += ["### The exceptions file", ""] + [f"- {p}" for p in self.problems] + [""]
        if self.edits:
            out += ["### Exceptions changed by this pull request", "", "```diff"] + self.edits + ["```", ""]
        if not self.findings and not self.problems:
            out += ["No breaking change: buf's FILE rules and the validation rules agree.", ""]
        return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
