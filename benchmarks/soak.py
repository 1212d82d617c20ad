"""The soak: both services under a steady load from ghz for a while, memory and latency
watched minute by minute. Run by scripts/tests/soak.sh (make soak: 10 minutes), which starts the
topology; reads its environment (compatibility-tests/topology.sh up). Standard library only.

Each interval runs, side by side and at fixed rates (open loop: ghz sends on schedule):
person-spring GetPerson and RegisterPerson (a new person, new request_id, each call), and
auth-node ValidateToken. After it: each service's resident memory, from the host's /proc.

Targets (printed PASS or MISS; `--judge` makes a MISS fail the run): no call fails, and each
service's resident memory grows by at most 3 % over the second half of the run. The first half
is warm-up: the JIT compiling, pools filling, the database's page cache filling with the rows
RegisterPerson adds (person-spring's resident memory rose 269 → 297 MiB over the first four
minutes of a 10-minute run, then by about 1 MiB a minute). The whole series is printed."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

RATES = {  # calls per second, per load
    "person-spring GetPerson": 300,
    "person-spring RegisterPerson": 50,
    "auth-node ValidateToken": 300,
}
FLAT = 0.03  # allowed growth of resident memory over the second half of the run


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--intervals", type=int, default=10)
    p.add_argument("--seconds", type=int, default=60, help="length of one interval")
    p.add_argument("--ghz", required=True)
    p.add_argument("--grpcurl", required=True)
    p.add_argument("--protoset", required=True)
    p.add_argument("--judge", action="store_true", help="fail the run on a MISS")
    p.add_argument("--report")
    args = p.parse_args()
    env = os.environ
    token = json.loads(_grpcurl(args, env["AUTH_TARGET"], "acme.auth.v1.AuthService/Login",
                                {"username": env["AUTH_ADMIN_USERNAME"], "password": env["AUTH_ADMIN_PASSWORD"]}))["token"]
    auth = {"authorization": f"Bearer {token}"}
    person = json.loads(_grpcurl(args, env["PERSON_TARGET"], "acme.person.v1.PersonService/RegisterPerson",
                                 {"requestId": "00000000-0000-4000-8000-5041c0000001", "person": {"name": "soak", "age": 1}},
                                 auth))["person"]
    loads = {
        "person-spring GetPerson": (env["PERSON_TARGET"], "acme.person.v1.PersonService/GetPerson", {"id": person["id"]}),
        "person-spring RegisterPerson": (env["PERSON_TARGET"], "acme.person.v1.PersonService/RegisterPerson",
                                         {"requestId": "{{.UUID}}", "person": {"name": "soak {{.RequestNumber}}", "age": 30,
                                                                               "hobbies": ["chess"]}}),
        "auth-node ValidateToken": (env["AUTH_TARGET"], "acme.auth.v1.AuthService/ValidateToken", {"token": token}),
    }
    containers = {"person-spring": env["PERSON_CONTAINER"], "auth-node": env["AUTH_CONTAINER"]}
    rows = []
    print(f"soak: {args.intervals} intervals of {args.seconds} s; rates per second: "
          + ", ".join(f"{k} {v}" for k, v in RATES.items()))
    print(f"{'interval':>8}  {'load':<30} {'calls':>7} {'rps':>6} {'p50 ms':>7} {'p99 ms':>7} {'errors':>6}  RSS MiB")
    for i in range(1, args.intervals + 1):
        with tempfile.TemporaryDirectory() as tmp:
            running = {name: _ghz(args, target, call, data, auth, RATES[name], f"{tmp}/{i}.json".replace(".json", f"-{n}.json"))
                       for n, (name, (target, call, data)) in enumerate(loads.items())}
            results = {name: _result(proc) for name, proc in running.items()}
        rss = {service: _rss_mib(c) for service, c in containers.items()}
        for name, r in results.items():
            service = name.split()[0]
            row = {"interval": i, "load": name, **r, "rss_mib": rss[service]}
            rows.append(row)
            print(f"{i:>8}  {name:<30} {r['count']:>7} {r['rps']:>6.0f} {r['p50_ms']:>7.2f} {r['p99_ms']:>7.2f} "
                  f"{r['errors']:>6}  {rss[service]:.0f}")
        sys.stdout.flush()
    verdicts = _verdicts(rows, args.intervals)
    for line, ok in verdicts:
        print(f"{'PASS' if ok else 'MISS'}  {line}")
    if args.report:
        with open(args.report, "w") as f:
            json.dump({"rows": rows, "verdicts": [{"target": t, "pass": ok} for t, ok in verdicts]}, f, indent=1)
    kinds: dict[str, int] = {}
    for r in rows:
        for k, v in r["error_kinds"].items():
            kinds[k] = kinds.get(k, 0) + v
    if kinds:
        print("errors by kind: " + "; ".join(f"{k}: {v}" for k, v in sorted(kinds.items(), key=lambda kv: -kv[1])))
    broken = [r for r in rows if r["count"] == 0]
    if broken:
        print(f"the soak's machinery broke: {len(broken)} loads made no calls")
        return 2
    return 1 if args.judge and not all(ok for _, ok in verdicts) else 0


def _verdicts(rows: list[dict], intervals: int) -> list[tuple[str, bool]]:
    out = [(f"no call failed ({sum(r['errors'] for r in rows)} errors in {sum(r['count'] for r in rows)} calls)",
            all(r["errors"] == 0 for r in rows))]
    for service in ("person-spring", "auth-node"):
        series = [r["rss_mib"] for r in rows if r["load"] == next(k for k in RATES if k.startswith(service))]
        warm, last = series[max(len(series) // 2 - 1, 0)], series[-1]
        per_minute = (last - warm) / max(len(series) - len(series) // 2, 1)
        out.append((f"{service} memory flat over the second half: {warm:.0f} MiB after interval "
                    f"{max(len(series) // 2, 1)}, {last:.0f} MiB at the end ({per_minute:+.1f} MiB per interval; "
                    f"allowed: +{FLAT:.0%}; series {' '.join(f'{x:.0f}' for x in series)})", last <= warm * (1 + FLAT)))
    return out


def _grpcurl(args, target: str, method: str, data: dict, headers: dict | None = None) -> str:
    cmd = [args.grpcurl, "-plaintext", "-protoset", args.protoset, "-d", json.dumps(data)]
    for k, v in (headers or {}).items():
        cmd += ["-H", f"{k}: {v}"]
    return subprocess.run(cmd + [target, method], check=True, capture_output=True, text=True).stdout


def _ghz(args, target, call, data, headers, rps, out):
    # Open loop: --rps is a schedule, not a ceiling reached by waiting on answers. A count, not a
    # duration: at the end of a duration ghz closes its connections under calls still running.
    cmd = [args.ghz, "--insecure", "--protoset", args.protoset, "--call", call, "-d", json.dumps(data),
           "--metadata", json.dumps(headers), "--rps", str(rps), "-n", str(rps * args.seconds),
           "--connections", "2", "-c", "16", "--timeout", "5s", "-O", "json", "-o", out, target]
    return subprocess.Popen(cmd), out


def _result(running) -> dict:
    proc, out = running
    proc.wait()
    with open(out) as f:
        report = json.load(f)
    percentiles = {d["percentage"]: d["latency"] / 1e6 for d in report.get("latencyDistribution") or []}
    codes = report.get("statusCodeDistribution") or {}
    return {"count": report.get("count", 0), "rps": report.get("rps", 0.0),
            "p50_ms": percentiles.get(50, 0.0), "p99_ms": percentiles.get(99, 0.0),
            "errors": sum(n for code, n in codes.items() if code != "OK"),
            "error_kinds": {k: v for k, v in codes.items() if k != "OK"} | (report.get("errorDistribution") or {})}


def _rss_mib(container: str) -> float:
    pid = subprocess.run(["docker", "inspect", "-f", "{{.State.Pid}}", container], check=True,
                         capture_output=True, text=True).stdout.strip()
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for {container}")


if __name__ == "__main__":
    sys.exit(main())
