"""check_dashboard.py DASHBOARD JOB=URL… — every metric a Grafana dashboard's queries name is one
the service really exports: each query selects its service by its scrape job (job="$auth_job"),
the job's URL is that service's live metrics page, and each metric the query names must be a
sample in that page. A dashboard whose panels stay empty because a metric was renamed, or was
never exported, fails here instead of on a user's screen.

    check_dashboard.py deploy/grafana/acme-services.json \
        auth_job=http://127.0.0.1:9464/metrics person_job=http://127.0.0.1:8080/actuator/prometheus

Run it after traffic: a counter with labels appears only once it has counted something.
"""
from __future__ import annotations

import json
import re
import sys
import urllib.request

# A metric in a query is a name followed by its selector or range: name{…} or name[…]. The
# dashboard writes every metric so (with its job matcher), which this check also demands.
METRIC = re.compile(r"\b([a-zA-Z_:][a-zA-Z0-9_:]*)\s*[{\[]")
JOB = re.compile(r'job="\$(\w+)"')


def exported(url: str) -> set[str]:
    with urllib.request.urlopen(url, timeout=10) as answer:
        text = answer.read().decode()
    return {re.split(r"[{ ]", line, maxsplit=1)[0] for line in text.splitlines() if line and not line.startswith("#")}


def queries(dashboard: dict):
    for panel in dashboard["panels"]:
        for nested in [panel, *panel.get("panels", [])]:
            for target in nested.get("targets", []):
                yield nested["title"], target["expr"]


def main(path: str, jobs: dict[str, str]) -> int:
    dashboard = json.load(open(path))
    samples = {job: exported(url) for job, url in jobs.items()}
    problems, checked = [], 0
    for title, expr in queries(dashboard):
        names = set(METRIC.findall(expr))
        selected = set(JOB.findall(expr))
        if not names:
            problems.append(f"{title}: no metric found in {expr!r}")
        if len(selected) != 1 or not selected <= jobs.keys():
            problems.append(f"{title}: the query must select one service by its job, one of {sorted(jobs)}: {expr!r}")
            continue
        job = selected.pop()
        for name in sorted(names):
            checked += 1
            if name not in samples[job]:
                problems.append(f"{title}: {name} is not exported by {jobs[job]}")
    for problem in problems:
        print(f"dashboard: {problem}", file=sys.stderr)
    print(f"dashboard {path}: {checked} metric references in {sum(1 for _ in queries(dashboard))} queries, "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], dict(arg.split("=", 1) for arg in sys.argv[2:])))
