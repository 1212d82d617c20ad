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

STEPS = ["compile", "lint", "format", "breaking", "versions", "drift", "check", "first", "releases"]
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
           f"Plan `{plan}`: {max((r['rep'] for r in rows), default=0)} timed run(s) of the whole gate (`check`, and each of "
           f"its steps) after a `first` run on the tree, which is timed once: on main nothing of the tree is remembered "
           f"yet (a fresh clone: every release compiled, every package generated, every comparison made); on the "
           f"pull request, what main's runs remembered is (as where `.tmp/cache` is kept). {releases} release tags on each "
           f"synthetic tree. Seconds: median (min–max); ✗: the step failed (timed anyway). Peak: the largest process's "
           f"resident memory over all steps. Machine: {os.cpu_count()} cores, {platform.machine()}, Linux {platform.release()}.", ""]
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

    # The cost curve: the whole gate (check, and its first run) against the number of files.
    curve = [(files[s], med(s, "main", "check"), med(s, "main", "first"), s) for s in sizes if med(s, "main", "check") is not None]
    if curve:
        top = max(max(t, f or 0) for _, t, f, _ in curve) or 1
        out += ["## Cost curve: the whole gate against the tree's size", "", "![cost curve](cost-curve.svg)", "", "```"]
        for n, t, f, s in sorted(curve):
            out.append(f"{n:>6,} files  check {t:7.2f} s |{'█' * max(1, round(40 * t / top))}")
            if f is not None:
                out.append(f"{'':>13} first {f:7.2f} s |{'░' * max(1, round(40 * f / top))}")
        out += ["```", ""]
        pathlib.Path(out_dir, "cost-curve.svg").write_text(chart(sorted(curve)))

    targets = []

    def target(name: str, value: float | None, limit: float | None, unit: str = "s") -> None:
        if value is None or limit is None:
            targets.append(f"- n/a {name}: not measured in this plan")
            return
        verdict = "PASS" if value <= limit else "MISS"
        targets.append(f"- **{verdict}** {name}: {value:.2f} {unit} (target ≤ {limit:.2f} {unit})")

    # The 1,000-file figures must stay or improve: the targets are the upper ends of the ranges
    # measured before the gate was rewritten (3.38 s, 3.35-3.40; 3.51 s, 3.44-3.72).
    target("make check on 1,000 files, warm (stays within 3.40 s or improves)", med("1000", "main", "check"), 3.40)
    target("a pull request touching one file of a 1,000-file tree (stays within 3.72 s or improves)", med("1000", "change", "check"), 3.72)
    check_1000, releases_1000 = med("1000", "main", "check"), med("1000", "main", "releases")
    share = None if check_1000 is None or releases_1000 is None else 100 * releases_1000 / max(check_1000, 1e-9)
    target(f"the comparison with {releases} releases, as a share of make check (1,000 files)", share, 20, "%")
    yardstick = [med("googleapis", "main", b) for b in BUF]
    target("make check on googleapis, first run", med("googleapis", "main", "first"),
           None if None in yardstick else 2 * sum(yardstick))
    target("make check on googleapis, warm", med("googleapis", "main", "check"),
           None if None in yardstick else 1.5 * sum(yardstick))
    if None not in yardstick:
        targets.append(f"  (buf's build {yardstick[0]:.2f} s + lint {yardstick[1]:.2f} s + breaking {yardstick[2]:.2f} s = {sum(yardstick):.2f} s; "
                       "first run ≤ 2 ×, warm ≤ 1.5 ×)")
    peaks = [r["peak_mib"] for r in rows if r["size"] == "googleapis" and r["step"] in ("first", "check")]
    target("peak memory on googleapis (first and warm runs)", max(peaks) / 1024 if peaks else None, 4, "GB")
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


def chart(curve: list[tuple[int, float, float | None, str]]) -> str:
    """An SVG line chart: seconds against files (log scale), for check and its first run."""
    import math
    w, h, left, bottom, top_pad, right = 640, 360, 60, 40, 20, 110
    xs = [math.log10(max(n, 1)) for n, *_ in curve]
    x0, x1 = min(xs), max(xs) if max(xs) > min(xs) else min(xs) + 1
    ymax = max(max(t, f or 0) for _, t, f, _ in curve) * 1.1 or 1

    def px(n: int) -> float:
        return left + (w - left - right) * (math.log10(max(n, 1)) - x0) / (x1 - x0)

    def py(v: float) -> float:
        return h - bottom - (h - bottom - top_pad) * v / ymax

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
             '<rect width="100%" height="100%" fill="white"/>',
             f'<line x1="{left}" y1="{h - bottom}" x2="{w - right}" y2="{h - bottom}" stroke="black"/>',
             f'<line x1="{left}" y1="{top_pad}" x2="{left}" y2="{h - bottom}" stroke="black"/>',
             f'<text x="{(w - right + left) / 2}" y="{h - 8}" text-anchor="middle">.proto files (log scale)</text>',
             f'<text x="14" y="{(h - bottom) / 2}" transform="rotate(-90 14 {(h - bottom) / 2})" text-anchor="middle">seconds</text>']
    for k in range(5):
        v = ymax * k / 4
        parts.append(f'<text x="{left - 6}" y="{py(v) + 4:.1f}" text-anchor="end">{v:.0f}</text>')
        parts.append(f'<line x1="{left}" y1="{py(v):.1f}" x2="{w - right}" y2="{py(v):.1f}" stroke="#ddd"/>')
    for n, _, _, name in curve:
        parts.append(f'<text x="{px(n):.1f}" y="{h - bottom + 16}" text-anchor="middle">{name if not name.isdigit() else f"{n:,}"}</text>')
    for label, pick, color in (("make check", 1, "#1f77b4"), ("first run", 2, "#d62728")):
        points = [(px(c[0]), py(c[pick])) for c in curve if c[pick] is not None]
        if not points:
            continue
        parts.append(f'<polyline fill="none" stroke="{color}" stroke-width="2" points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in points)}"/>')
        parts += [f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{color}"/>' for x, y in points]
        parts.append(f'<text x="{points[-1][0] + 8:.1f}" y="{points[-1][1] + 4:.1f}" fill="{color}">{label}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))
