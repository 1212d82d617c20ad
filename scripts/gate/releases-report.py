"""releases-report.py — the working tree's breaking findings against every release, judged.

    releases-report.py --head HEAD.binpb --exceptions proto/breaking-exceptions.yaml
                       [--summary-json OUT.json]
                       --release TAG IMAGE BUF.jsonl RULES.jsonl MESSAGE … (newest release first)
    releases-report.py --accepted-breaks SUMMARY.json   (make release: the lines its tag records)

Each --release gives a release's compiled image, buf breaking's and validation-diff.mjs's
findings of the working tree against it, and its tag's message, where a breaking release
recorded each break it accepted with a reason as an "Accepted-Break: RULE ELEMENT" line (this
file writes them, for make release, and reads them). A finding against a release is
  - accepted by exception: an unexpired entry of the exceptions file names its element and rule
    (check-breaking.sh judges the file itself; here it is only read);
  - waived: a newer release accepted that rule on that element — the finding is what that
    release broke on purpose, seen again from further back;
  - refused otherwise.
Findings are pinned to elements the way breaking-report.py pins them, and grouped by element and
rule, so each prints once with every release it breaks. Exit 1 when one is refused.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import pathlib
import sys

ACCEPTED = "Accepted-Break: "

_spec = importlib.util.spec_from_file_location("breaking_report", pathlib.Path(__file__).with_name("breaking-report.py"))
br = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = br  # its dataclasses look their module up there
_spec.loader.exec_module(br)


def main() -> int:
    parser = argparse.ArgumentParser(prog="releases-report.py")
    parser.add_argument("--head", type=pathlib.Path)
    parser.add_argument("--exceptions", type=pathlib.Path)
    parser.add_argument("--summary-json", type=pathlib.Path)
    parser.add_argument("--release", nargs=5, action="append", default=[],
                        metavar=("TAG", "IMAGE", "BUF", "RULES", "MESSAGE"))
    parser.add_argument("--accepted-breaks", type=pathlib.Path, metavar="SUMMARY",
                        help="print the Accepted-Break lines for the findings of a summary this wrote")
    args = parser.parse_args()
    if args.accepted_breaks:
        findings = json.loads(args.accepted_breaks.read_text())["findings"]
        found = sorted({(f["rule"], f["element"]) for f in findings if not f["verdict"].startswith("waived")})
        print("\n".join(f"{ACCEPTED}{rule} {element}" for rule, element in found))
        return 0
    if not args.head or not args.exceptions:
        parser.error("--head and --exceptions are required")

    head: br.Image | None = None  # read once, when a finding needs it (most runs have none)
    today = datetime.datetime.now(datetime.timezone.utc).date()
    # Accepted breaks seen so far, walking from the newest release back: those of every release
    # newer than the one being judged.
    accepted_later: dict[tuple[str, str], str] = {}
    grouped: dict[tuple[str, str], dict] = {}
    rules: set[str] | None = None  # buf's rule ids, asked for once, when a finding needs them
    for tag, image, buf_jsonl, rules_jsonl, message in args.release:
        findings = [br.buf_finding(json.loads(l), "proto") for l in br.lines(pathlib.Path(buf_jsonl))]
        findings += [br.rules_finding(json.loads(l)) for l in br.lines(pathlib.Path(rules_jsonl))]
        # A release's image is read only when there is a finding to pin to its elements.
        base = br.Image(pathlib.Path(image)) if findings else None
        if findings and rules is None:
            rules = br.known_rules()
        if findings and head is None:
            head = br.Image(args.head)
        entries = br.load_exceptions(args.exceptions, rules, head, base)[0] if findings else []
        for f in findings:
            f.element = f.element or head.element_at(f.file, f.line, f.column) or base.element_at(f.file, f.line, f.column) or f.file
            key = (f.element, f.rule)
            g = grouped.setdefault(key, {"finding": f, "releases": [], "refused": [], "waived_by": None, "exception": None})
            g["releases"].append(tag)
            g["exception"] = next((e for e in entries if (e["element"], e["rule"]) == key and e["expires"] >= today), None)
            if key in accepted_later:
                g["waived_by"] = accepted_later[key]
            elif not g["exception"]:
                g["refused"].append(tag)
        for line in br.lines(pathlib.Path(message)):
            if line.startswith(ACCEPTED):
                rule, _, element = line[len(ACCEPTED):].strip().partition(" ")
                accepted_later.setdefault((element, rule), tag)

    def verdict(g: dict) -> str:
        if g["exception"]:
            return f"accepted by exception until {g['exception']['expires']}: {g['exception']['reason']}"
        if g["refused"]:
            return f"refused: it breaks the clients of {', '.join(g['refused'])}"
        return f"waived: {g['waived_by']} accepted this break"

    refused = sum(1 for g in grouped.values() if verdict(g).startswith("refused"))
    for (element, rule), g in grouped.items():
        f = g["finding"]
        print(f"{f.file}:{f.line}:{f.column}:{rule} {f.message} [{element}] — breaks {', '.join(g['releases'])} — {verdict(g)}")
    tags = [r[0] for r in args.release]
    print(f"releases: compared with {len(tags)} ({', '.join(tags)}); {len(grouped)} findings, {refused} refused")
    if args.summary_json:
        args.summary_json.write_text(json.dumps({
            "releases": tags,
            "findings": [{"rule": rule, "element": element, "message": g["finding"].message,
                          "releases": g["releases"], "refused": g["refused"], "verdict": verdict(g)}
                         for (element, rule), g in grouped.items()]}, indent=1))
    return 1 if refused else 0


if __name__ == "__main__":
    sys.exit(main())
