"""report.py RESULTS.jsonl OUT_DIR full|smoke RELEASES — the gate's cost per step and tree size
(scripts/bench/gate.sh measured it): median with min and max of the repetitions, peak memory,
a chart of the whole gate's time against the number of files, and PASS or MISS against each
target the gate must meet to stay usable on an organisation's tree (the limits in main()).
Writes OUT_DIR/report.md and results.json; prints the report.

The smoke plan judges no timing; it fails when a step of the gate failed on a synthetic tree,
which is lint-clean and must pass every check.
"""

from __future__ import annotations

import collections
import json
import os
import pathlib
import platform
import statistics
import sys

STEPS = ["compile", "lint", "format", "breaking", "releases", "versions", "drift", "check"]
BUF = ["buf-build", "buf-lint", "buf-breaking"]


def main(results: str, out_dir: str, plan: str, releases: str) -> int:
    rows = [json.loads(line) for line in pathlib.Path(results).read_text().splitlines() if line.strip()]
    runs: dict[tuple[str, str, str], list[dict]] = collections.defaultdict(list)
    files: dict[str, int] = {}
    for r in rows:
        runs[(r["size"], r["branch"], r["step"])].append(r)
        files[r["size"]] = r["files"]

    def med(size: str, branch: str, step: str) -> float | None:
        got = runs.get((size, branch, step))
        return statistics.median(r["seconds"] for r in got) if got else None

    def cell(size: str, branch: str, step: str) -> str:
        got = runs.get((size, branch, step))
        if not got:
            return "—"
        secs = [r["seconds"] for r in got]
        text = f"{statistics.median(secs):.2f}" + (f" ({min(secs):.2f}–{max(secs):.2f})" if len(secs) > 1 else "")
        return text + ("" if all(r["ok"] for r in got) else " ✗")

    sizes = list(dict.fromkeys(r["size"] for r in rows))
    out = ["# The gate at organisation scale", "",
           f"Plan `{plan}`: {max((r['rep'] for r in rows), default=0)} timed run(s) per step after one warm-up run of the "
           f"whole gate; {releases} release tags on each synthetic tree. Seconds: median (min–max); ✗: the step failed "
           f"(timed anyway). Peak: the largest process's resident memory over all steps. Machine: {os.cpu_count()} cores, "
           f"{platform.machine()}, Linux {platform.release()}.", ""]
    for branch, title in (("main", "The whole tree (main)"), ("change", "A pull request that touches one file")):
        present = [s for s in sizes if any(k[0] == s and k[1] == branch for k in runs)]
        if not present:
            continue
        out += [f"## {title}", "", "| tree | files | " + " | ".join(STEPS) + " | peak MiB |",
                "|---|---:|" + "---:|" * (len(STEPS) + 1)]
        for s in present:
            peak = max(r["peak_mib"] for k, rs in runs.items() if k[0] == s and k[1] == branch for r in rs)
            out.append(f"| {s} | {files[s]:,} | " + " | ".join(cell(s, branch, st) for st in STEPS) + f" | {peak:,} |")
        out.append("")
    if any(k[2] in BUF for k in runs):
        out += ["## buf's own steps on googleapis (the yardstick)", "", "| " + " | ".join(BUF) + " |", "|" + "---:|" * len(BUF),
                "| " + " | ".join(cell("googleapis", "main", b) for b in BUF) + " |", ""]

    # The cost curve: the whole gate (check) against the number of files.
    curve = [(files[s], med(s, "main", "check"), s) for s in sizes if med(s, "main", "check") is not None]
    if curve:
        top = max(t for _, t, _ in curve) or 1
        out += ["## Cost curve: the whole gate against the tree's size", "", "```"]
        for n, t, s in sorted(curve):
            out.append(f"{n:>6,} files {t:8.2f} s |{'█' * max(1, round(50 * t / top))}")
        out += ["```", ""]

    targets = []

    def target(name: str, value: float | None, limit: float | None, unit: str = "s") -> None:
        if value is None or limit is None:
            targets.append(f"- n/a {name}: not measured in this plan")
            return
        verdict = "PASS" if value <= limit else "MISS"
        targets.append(f"- **{verdict}** {name}: {value:.2f} {unit} (target ≤ {limit:.2f} {unit})")

    target("make check on 1,000 files, warm", med("1000", "main", "check"), 10)
    target("a pull request touching one file of a 1,000-file tree", med("1000", "change", "check"), 5)
    check_1000, releases_1000 = med("1000", "main", "check"), med("1000", "main", "releases")
    share = None if check_1000 is None or releases_1000 is None else 100 * releases_1000 / max(check_1000 - releases_1000, 1e-9)
    target(f"the check against {releases} releases adds to make check (1,000 files)", share, 20, "%")
    yardstick = [med("googleapis", "main", b) for b in BUF]
    target("make check on googleapis", med("googleapis", "main", "check"),
           None if None in yardstick else 1.5 * sum(yardstick))
    if None not in yardstick:
        targets.append(f"  (1.5 × buf's build {yardstick[0]:.2f} s + lint {yardstick[1]:.2f} s + breaking {yardstick[2]:.2f} s)")
    out += ["## Targets", ""] + targets + [""]

    report = "\n".join(out)
    pathlib.Path(out_dir, "report.md").write_text(report)
    pathlib.Path(out_dir, "results.json").write_text(json.dumps(rows, indent=1))
    print(report)
    broken = [f"{r['size']} {r['branch']} {r['step']}" for r in rows if not r["ok"] and r["size"] != "googleapis"]
    if broken:
        print("the gate failed on a synthetic tree, which must pass: " + ", ".join(sorted(set(broken))), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))
