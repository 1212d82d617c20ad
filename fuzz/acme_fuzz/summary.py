"""python -m acme_fuzz.summary REPORT.json … — one table per service from the reports of its
workers (fuzz.sh runs several per service, side by side, each with its own seed)."""

from __future__ import annotations

import collections
import json
import sys


def main(paths: list[str]) -> int:
    by_service: dict[str, list[dict]] = collections.defaultdict(list)
    for path in paths:
        with open(path) as f:
            report = json.load(f)
        by_service[report["service"]].append(report)
    failed = False
    for service, reports in sorted(by_service.items()):
        outcomes: collections.Counter[str] = collections.Counter()
        for r in reports:
            outcomes.update(r["outcomes"])
        inputs = sum(r["inputs"] for r in reports)
        seconds = max(r["seconds"] for r in reports)
        problems = [p for r in reports for p in r["problems"]]
        failed |= bool(problems)
        print(f"{service}: {inputs} inputs by {len(reports)} workers (seeds "
              f"{', '.join(str(r['seed']) for r in reports)}) in {seconds} s, "
              f"{sum(r['regressions_replayed'] for r in reports)} regression cases replayed")
        for outcome, n in outcomes.most_common():
            print(f"  {n:7d}  {outcome}")
        print(f"  valid calls beside them on the same connection, answered OK: "
              f"{sum(r.get('valid_calls_beside_ok', 0) for r in reports)}")
        before = min(r["rss_mib"]["before"] for r in reports)
        after = max(r["rss_mib"]["after"] for r in reports)
        print(f"  resident memory: {before} MiB before, {after} MiB after (bound {reports[0]['rss_mib']['bound']} MiB)")
        if service == "person-spring":
            print(f"  people sent by failed storing calls: {sum(r['failed_storing_calls_people'] for r in reports)}, "
                  f"of them stored: {sum(r['rows_left_by_failed_calls'] for r in reports)}")
        print(f"  health after: {'SERVING' if all(r['healthy_after'] for r in reports) else 'NOT SERVING'}")
        for p in problems:
            print(f"  PROBLEM: {p}")
        print("  result: " + ("FAIL" if problems else "pass"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
