"""python -m acme_fuzz --service person-spring|auth-node --inputs N [--seed S]

Fuzzes one running service (the topology's addresses come from the environment that
compatibility-tests/topology.sh prints), then checks what must still hold afterwards, and
prints a report: inputs tried, status codes seen, memory before and after, rows left by
failed calls. Exit status 1 on any problem. A failing input is saved under
fuzz/regressions/ and replayed first by every later run."""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import os
import pathlib
import secrets
import sys
import time

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis.database import DirectoryBasedExampleDatabase

from . import afterwards, oracle, reference
from .cases import Case, case
from .runner import Runner

HERE = pathlib.Path(__file__).resolve().parent.parent
REGRESSIONS = HERE / "regressions"
# Resident memory the service must stay under after the run (README: "Memory").
RSS_BOUND_MIB = {"auth-node": 256, "person-spring": 768}
# Calls whose people must not be stored when the call failed.
STORING = {"RegisterPerson", "RegisterPeople", "POST /api/people"}


class Failure(AssertionError):
    pass


def main() -> int:
    parser = argparse.ArgumentParser(prog="acme_fuzz")
    parser.add_argument("--service", required=True, choices=["person-spring", "auth-node"])
    parser.add_argument("--inputs", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=int(os.environ.get("FUZZ_SEED", "20261123")))
    parser.add_argument("--report", type=pathlib.Path)
    parser.add_argument("--verbose", action="store_true", help="print every case and its answer")
    args = parser.parse_args()
    env = os.environ
    # Not from Hypothesis's random: names must differ between runs, inputs must not.
    run_id = "".join(secrets.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(6))
    admin = (env["AUTH_ADMIN_USERNAME"], env["AUTH_ADMIN_PASSWORD"])
    token = afterwards.login(env["AUTH_TARGET"], *admin)
    container = env["PERSON_CONTAINER" if args.service == "person-spring" else "AUTH_CONTAINER"]
    grpc_target = env["PERSON_TARGET" if args.service == "person-spring" else "AUTH_TARGET"]
    rest_target = env["PERSON_REST_TARGET" if args.service == "person-spring" else "AUTH_REST_TARGET"]

    runner = Runner(args.service, grpc_target, rest_target, token, run_id)
    decodes = reference.for_service(args.service, env.get("NODE", "node"), env.get("FUZZ_JAVA_CLASSPATH", ""))
    codes: collections.Counter[str] = collections.Counter()
    failed_names: set[str] = set()
    problems: list[str] = []
    last_failure: list[Case] = []
    last_problem: list[str] = [""]
    beside = [0]  # valid calls answered OK beside a case on its connection

    def one(c: Case) -> None:
        if not c.names:
            runner.fill_names(c)
        sent = time.monotonic()
        answer = runner.send(c)
        took_ms = (time.monotonic() - sent) * 1000
        codes[_outcome(c, answer)] += 1
        if args.verbose:
            print(f"{took_ms:7.1f} ms {_outcome(c, answer)} ← {c.transport} {c.rpc} {c.spoiled} framing={c.framing} auth={c.auth} "
                  f"end={c.end} http={answer.http_status} reset={answer.reset_by_server} "
                  f"message={answer.grpc_message[:80]!r} lost={answer.connection_lost}", file=sys.stderr)
        if c.rpc in STORING and not _status_ok(c, answer):
            failed_names.update(c.names)
        found = oracle.check(c, answer, decodes)
        if answer.beside is not None and not oracle.beside_problems(answer):
            beside[0] += 1
        if found:
            last_failure[:] = [c]
            last_problem[0] = "; ".join(found)
            raise Failure(f"{c.transport} {c.rpc} ({', '.join(c.spoiled) or 'no messages'}; framing "
                          f"{c.framing}; auth {c.auth}; end {c.end}): " + "; ".join(found))

    rss_before = afterwards.rss_mib(container)
    started = time.monotonic()
    replayed = 0
    for path in sorted(REGRESSIONS.glob(f"{args.service}-*.json")):
        try:
            one(Case.from_json(path.read_text()))
        except Failure as e:
            problems.append(f"regression {path.name}: {e}")
        replayed += 1

    @settings(max_examples=args.inputs, deadline=None, report_multiple_bugs=False,
              suppress_health_check=list(HealthCheck),
              phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],
              database=DirectoryBasedExampleDatabase(str(HERE.parent / ".tmp" / "fuzz" / "hypothesis")))
    @seed(args.seed)
    @given(case(args.service))
    def fuzz(c: Case) -> None:
        one(c)

    try:
        fuzz()
    except Exception as e:  # Failure; or Hypothesis's FlakyFailure when it did not happen again
        saved = _save(last_failure[0], last_problem[0]) if last_failure else None
        what = str(e) if isinstance(e, Failure) else f"{type(e).__name__}: {e} (first: {last_problem[0]})"
        problems.append(what + (f" — saved as {saved.relative_to(HERE.parent)}" if saved else ""))
    elapsed = time.monotonic() - started
    runner.close()
    inputs = sum(codes.values())

    # Afterwards: health, every RPC, rows, memory.
    target_health = afterwards.healthy(grpc_target)
    if not target_health:
        problems.append("health is not SERVING after the run")
    if args.service == "person-spring":
        problems += afterwards.every_rpc_person(grpc_target, token, f"fz{run_id}after")
        stored = afterwards.stored_names(grpc_target, token, f"fz{run_id}")
        left = sorted(failed_names & stored)
        if left:
            problems.append(f"{len(left)} people of failed calls were stored, e.g. {left[:3]}")
    else:
        problems += afterwards.every_rpc_auth(grpc_target, admin, run_id)
        left = []
    rss_after = afterwards.rss_mib(container)
    if rss_after > RSS_BOUND_MIB[args.service]:
        problems.append(f"resident memory {rss_after:.0f} MiB after the run, over the bound of "
                        f"{RSS_BOUND_MIB[args.service]} MiB")

    report = {
        "service": args.service, "seed": args.seed, "inputs": inputs, "regressions_replayed": replayed,
        "seconds": round(elapsed, 1), "inputs_per_second": round(inputs / elapsed) if elapsed else 0,
        "outcomes": dict(sorted(codes.items(), key=lambda kv: -kv[1])),
        "rss_mib": {"before": round(rss_before), "after": round(rss_after), "bound": RSS_BOUND_MIB[args.service]},
        "valid_calls_beside_ok": beside[0],
        "failed_storing_calls_people": len(failed_names), "rows_left_by_failed_calls": len(left),
        "healthy_after": target_health, "problems": problems,
    }
    _print(report)
    if args.report:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(json.dumps(report, indent=1))
    return 1 if problems else 0


def _status_ok(c: Case, answer) -> bool:
    if answer.reset_by_client or answer.connection_lost:
        return False
    if c.transport == "rest":
        return answer.http_status in (200, 201)
    return answer.grpc_status == 0


def _outcome(c: Case, answer) -> str:
    """A short label of how a call ended, for the report's histogram."""
    if answer.connection_lost:
        return "connection lost"
    if answer.reset_by_client:
        return "reset by the client"
    if answer.reset_by_server is not None and answer.grpc_status is None:
        return f"{c.transport} reset by the server (HTTP/2 error {answer.reset_by_server})"
    if c.transport == "rest":
        return f"REST HTTP {answer.http_status}"
    code, _ = oracle._code(c, answer)
    return f"{c.transport} {oracle.NAMES.get(code, code)}"


def _save(c: Case, found: str) -> pathlib.Path:
    REGRESSIONS.mkdir(exist_ok=True)
    text = c.to_json(found)
    path = REGRESSIONS / f"{c.service}-{hashlib.sha256(text.encode()).hexdigest()[:12]}.json"
    path.write_text(text + "\n")
    return path


def _print(report: dict) -> None:
    print(f"fuzz {report['service']}: {report['inputs']} inputs in {report['seconds']} s "
          f"({report['inputs_per_second']}/s), seed {report['seed']}, "
          f"{report['regressions_replayed']} regression cases replayed")
    for outcome, n in report["outcomes"].items():
        print(f"  {n:7d}  {outcome}")
    print(f"  valid calls beside them on the same connection, answered OK: {report['valid_calls_beside_ok']}")
    rss = report["rss_mib"]
    print(f"  resident memory: {rss['before']} MiB before, {rss['after']} MiB after (bound {rss['bound']} MiB)")
    if report["service"] == "person-spring":
        print(f"  people sent by failed storing calls: {report['failed_storing_calls_people']}, "
              f"of them stored: {report['rows_left_by_failed_calls']}")
    print(f"  health after: {'SERVING' if report['healthy_after'] else 'NOT SERVING'}")
    for p in report["problems"]:
        print(f"  PROBLEM: {p}")
    print("  result: " + ("FAIL" if report["problems"] else "pass"))


if __name__ == "__main__":
    sys.exit(main())
