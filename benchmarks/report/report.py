"""report.py RESULTS_JSON OUT_DIR [--check] — the benchmark report: every figure of
results.json as the median of its repetitions with min and max, beside the field reports'
figure (../shared/SEEDS.md), with PASS or MISS against each target, as report.md and charts
(PNG, matplotlib) in OUT_DIR. Ratios are taken inside each repetition, then summarised.
--check (make test's smoke run) fails when a scenario, a counted byte or a chart is missing.
"""
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path

import matplotlib

import store_report

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SCENARIOS = {
    "s1": "calls in a row",
    "s2": "header bytes on the wire",
    "s3": "payload sweep at 100 requests/s",
    "s4": "new connection per call vs kept alive",
    "s5": "100 concurrent clients, large answers",
    "s6": "phases inside person-spring",
    "s7": "concurrent RegisterPeople uploaders",
    "xc": "one outside load generator for both protocols",
    "an": "auth-node beside a bare Node server (h2load)",
    "am": "auth-node with metrics on and off (h2load)",
    "s1x": "scenario 1 by ghz and h2load",
    "s3x": "scenario 3 by ghz and h2load",
    **store_report.SCENARIOS,
}

# The field reports' published figures, printed beside ours (benchmarks/README.md says which
# report measured what, and how).
REPORT_S1 = {10: (23, 14, 9), 100: (165, 101, 20), 1000: (1000, 694, 106), 10000: (4109, 2132, 468), 100000: (41491, 13768, 2880)}
REPORT_S2 = {"rest-http1.1": 349, "grpc": 116}
REPORT_S5 = {"14KB": "REST 3.4 ms; gRPC 5.66 (grpc.server) / 4.09 (grpc.aio)", "256KB": "REST 22 ms; gRPC 14.19 / 12.33"}


class Figures:
    def __init__(self, rows):
        self.values = defaultdict(dict)  # (scenario, service, series, x, metric) -> {rep: value}
        for r in rows:
            self.values[(r["scenario"], r["service"], r["series"], r["x"], r["metric"])][r["rep"]] = r["value"]

    def has(self, *key):
        return tuple(key) in self.values

    def reps(self, *key):
        return self.values.get(tuple(key), {})

    def stat(self, *key):
        v = list(self.reps(*key).values())
        return (statistics.median(v), min(v), max(v)) if v else None

    def ratio(self, a, b):
        """a ÷ b, repetition by repetition, summarised."""
        ra, rb = self.reps(*a), self.reps(*b)
        v = [ra[k] / rb[k] for k in ra if k in rb and rb[k]]
        return (statistics.median(v), min(v), max(v)) if v else None

    def scenarios(self):
        return {k[0] for k in self.values}


def summary(values):
    return (statistics.median(values), min(values), max(values)) if values else None


def num(v, digits=None):
    if v is None or v != v:
        return "–"
    if digits is None:
        digits = 0 if abs(v) >= 100 else 1 if abs(v) >= 10 else 2
    return f"{v:,.{digits}f}"


def cell(s, digits=None, unit=""):
    if s is None:
        return "–"
    med, lo, hi = s
    return f"{num(med, digits)}{unit} ({num(lo, digits)}–{num(hi, digits)})"


def verdict(ok):
    return "**PASS**" if ok else "**MISS**"


class Report:
    def __init__(self, data, out):
        self.f = Figures(data["rows"])
        self.meta = data["meta"]
        self.notes = data["notes"]
        self.out = out
        self.lines = []
        self.targets = []  # (target, figure, verdict)
        self.charts = []

    def p(self, *lines):
        self.lines.extend(lines)

    def table(self, header, rows):
        self.p("| " + " | ".join(header) + " |", "|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|")
        for r in rows:
            self.p("| " + " | ".join(str(c) for c in r) + " |")
        self.p("")

    def target(self, name, stat, threshold, above=True, unit="×"):
        if stat is None:
            self.targets.append((name, "not measured in this run", "–"))
            return
        ok = stat[0] >= threshold if above else stat[0] <= threshold
        self.targets.append((name, cell(stat, unit=unit), verdict(ok)))

    # Scenario 1 -----------------------------------------------------------------------
    def s1(self):
        f = self.f
        ns = sorted({int(k[3]) for k in f.values if k[0] == "s1"})
        self.p("## Scenario 1 — calls in a row (report 000)", "",
               f"RegisterPerson N times on one connection, each call waiting for its answer, after "
               f"50 warm-up calls; total ms, median (min–max) of {self.meta.get('repetitions')} runs. "
               "The client stream sends all N people on one RegisterPeople call.", "")
        rows = []
        for n in ns:
            key = lambda s: ("s1", "person-spring", s, str(n), "total")
            rep = REPORT_S1.get(n, ("–",) * 3)
            rows.append([f"{n:,}", f"{rep[0]:,} / {rep[1]:,} / {rep[2]:,}" if n in REPORT_S1 else "–",
                         cell(f.stat(*key("rest"))), cell(f.stat(*key("grpc-unary"))), cell(f.stat(*key("grpc-client-stream"))),
                         cell(f.ratio(key("rest"), key("grpc-unary")), 1, "×"),
                         cell(f.ratio(key("rest"), key("grpc-client-stream")), 1, "×"),
                         f"{REPORT_S1[n][0] / REPORT_S1[n][1]:.1f}× / {REPORT_S1[n][0] / REPORT_S1[n][2]:.1f}×" if n in REPORT_S1 else "–"])
        self.table(["N", "report: REST / unary / stream (ms)", "ours: REST (ms)", "ours: gRPC unary (ms)", "ours: client stream (ms)",
                    "ours: REST ÷ unary", "ours: REST ÷ stream", "report: ratios"], rows)
        big = lambda s: ("s1", "person-spring", s, "100000", "total")
        self.target("s1: REST ÷ gRPC unary at N = 100,000 ≥ 4× (report 3.0×)", f.ratio(big("rest"), big("grpc-unary")), 4)
        self.target("s1: REST ÷ client stream at N = 100,000 ≥ 25× (report 14.4×)", f.ratio(big("rest"), big("grpc-client-stream")), 25)

        fig, ax = plt.subplots(figsize=(7, 4.5))
        for series, label in (("rest", "REST/JSON"), ("grpc-unary", "gRPC unary"), ("grpc-client-stream", "gRPC client stream")):
            pts = [(n, f.stat("s1", "person-spring", series, str(n), "total")) for n in ns]
            pts = [(n, s) for n, s in pts if s]
            ax.errorbar([n for n, _ in pts], [s[0] for _, s in pts],
                        yerr=[[s[0] - s[1] for _, s in pts], [s[2] - s[0] for _, s in pts]], marker="o", capsize=3, label=f"ours: {label}")
        for i, label in enumerate(("REST/JSON", "gRPC unary", "gRPC client stream")):
            ax.plot(list(REPORT_S1), [v[i] for v in REPORT_S1.values()], linestyle=":", marker="x", color=f"C{i}", alpha=0.6,
                    label=f"report 000: {label}")
        ax.set(xscale="log", yscale="log", xlabel="calls in a row (N)", ylabel="total time (ms)",
               title="Scenario 1: total time vs N (person-spring, one connection)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
        self.save(fig, "s1-total-time-vs-n.png")

    # Scenario 2 -----------------------------------------------------------------------
    def s2(self):
        f = self.f
        keys = sorted({k[1:4] for k in f.values if k[0] == "s2"})
        self.p("## Scenario 2 — request header bytes on the wire (report 001)", "",
               "A repeated authenticated call with our real JWT, through a byte-counting TCP proxy: "
               "request line and headers (HTTP/1.1) or HEADERS frames with their 9-byte frame headers "
               "(HTTP/2, after HPACK). First call, and steady state (median of the calls after the first). "
               "auth-node's calls are the TypeScript SDK's Connect for Node client (ListUsers).", "")
        rows = []
        for service, series, x in keys:
            rows.append([service, series, cell(f.stat("s2", service, series, x, "first"), 0, " B"),
                         cell(f.stat("s2", service, series, x, "steady"), 0, " B"),
                         f"{REPORT_S2[series]} B" if service == "person-spring" and series in REPORT_S2 else "–",
                         cell(f.stat("s2", service, series, x, "all-bytes-sent"), 0, " B")])
        self.table(["service", "protocol", "first call", "steady state", "report", f"all bytes sent ({keys[0][2] if keys else '?'} calls)"], rows)
        x = keys[0][2] if keys else "0"
        self.target("s2: REST ÷ gRPC header bytes per call, steady state ≥ 10× (report 3×)",
                    f.ratio(("s2", "person-spring", "rest-http1.1", x, "steady"), ("s2", "person-spring", "grpc", x, "steady")), 10)

    # Scenario 3 -----------------------------------------------------------------------
    def s3(self):
        f = self.f
        sizes = ["min", "1KB", "10KB", "100KB", "1MB"]
        sizes = [s for s in sizes if f.has("s3", "person-spring", "grpc-requests", s, "p50")]
        self.p("## Scenario 3 — payload sweep at 100 requests/s, open loop (report 004)", "",
               "Requests are due on a fixed schedule (100/s); one that cannot start because 100 are "
               "unanswered is dropped; latency runs from the due time. Requests: RegisterPerson into "
               "the file-backed H2 store; responses: GetPerson of a stored person of that size. "
               "Report 004 (k6, Flask vs Go): at 1 MB gRPC fell to ~15 requests/s with 83.7 % never "
               "sent, REST held ~80/s.", "")
        rows = []
        for direction in ("requests", "responses"):
            for size in sizes:
                for proto in ("rest", "grpc"):
                    k = lambda m: ("s3", "person-spring", f"{proto}-{direction}", size, m)
                    b = f.stat("s3", "person-spring", proto, size, "request-bytes")
                    rows.append([direction, size, num(b[0], 0) if b else "–", proto, cell(f.stat(*k("p50"))), cell(f.stat(*k("p99"))),
                                 cell(f.stat(*k("max"))), cell(f.stat(*k("achieved")), 1), cell(f.stat(*k("dropped")), 1),
                                 cell(f.stat(*k("failed")), 1)])
        self.table(["direction", "size", "request bytes", "protocol", "p50 ms", "p99 ms", "max ms", "achieved /s", "dropped %",
                    "failed %"], rows)
        # A drop in any repetition is a drop: these two are judged on the worst run of the worst size.
        for metric in ("dropped", "failed"):
            worst = None
            for direction in ("requests", "responses"):
                for size in sizes:
                    s = f.stat("s3", "person-spring", f"grpc-{direction}", size, metric)
                    if s and (worst is None or s[2] > worst[0]):
                        worst = (s[2], s[1], s[2])
            self.target(f"s3: gRPC {metric} % at every size, both directions (worst run) = 0", worst, 0, above=False, unit=" %")
        for direction in ("requests", "responses"):
            worst_ratio = None
            for size in sizes[1:]:
                r = f.ratio(("s3", "person-spring", f"grpc-{direction}", size, "p50"), ("s3", "person-spring", f"rest-{direction}", size, "p50"))
                if r and (worst_ratio is None or r[0] > worst_ratio[0]):
                    worst_ratio = r
            self.target(f"s3: gRPC p50 ÷ REST p50 from 1 KB up, {direction} (worst size) ≤ 1", worst_ratio, 1, above=False)

        fig, axes = plt.subplots(1, 2, figsize=(11, 4.5), sharey=True)
        xs = list(range(len(sizes)))
        for ax, direction in zip(axes, ("requests", "responses")):
            for i, proto in enumerate(("rest", "grpc")):
                for metric, style in (("p50", "-"), ("p99", "--")):
                    st = [f.stat("s3", "person-spring", f"{proto}-{direction}", s, metric) for s in sizes]
                    ax.errorbar(xs, [s[0] for s in st], yerr=[[s[0] - s[1] for s in st], [s[2] - s[0] for s in st]],
                                linestyle=style, marker="o", color=f"C{i}", capsize=3, label=f"{proto.upper() if proto == 'rest' else 'gRPC'} {metric}")
            ax.set(xticks=xs, xticklabels=sizes, yscale="log", xlabel="person size", title=f"{direction} at 100/s")
            ax.grid(True, which="both", alpha=0.3)
        axes[0].set_ylabel("latency from due time (ms)")
        axes[1].legend(fontsize=8)
        fig.suptitle("Scenario 3: latency vs payload size (person-spring, open loop)")
        self.save(fig, "s3-latency-vs-size.png")

        if "s3x" in f.scenarios():
            self.p("Cross-check at 100 requests/s (responses): ghz (100 workers, -r 100) and h2load (10 connections × 10/s). "
                   "h2load reports a mean, not percentiles.", "")
            rows = []
            for size in sizes:
                rows.append([size, cell(f.stat("s3", "person-spring", "grpc-responses", size, "p50")),
                             cell(f.stat("s3x", "person-spring", "ghz-grpc-responses", size, "p50")),
                             self.disagree(f.stat("s3", "person-spring", "grpc-responses", size, "p50"),
                                           f.stat("s3x", "person-spring", "ghz-grpc-responses", size, "p50")),
                             cell(f.stat("s3", "person-spring", "rest-responses", size, "p50")),
                             cell(f.stat("s3x", "person-spring", "h2load-rest-responses", size, "mean"))])
            self.table(["size", "ours gRPC p50 ms", "ghz p50 ms", "ghz vs ours", "ours REST p50 ms", "h2load REST mean ms"], rows)
            self.p("Where ghz and ours differ by more than 20 %: ours runs from the time a request was due, ghz's "
                   "from the time it sent it, so ours includes any wait to start (the open loop's point); and "
                   "ghz's 100 workers on one connection are a different client from our async stub.", "")

    @staticmethod
    def disagree(ours, theirs):
        if not ours or not theirs or not ours[0]:
            return "–"
        d = (theirs[0] - ours[0]) / ours[0] * 100
        return f"{d:+.0f} %" + (" ⚠ > 20 %" if abs(d) > 20 else "")

    # Scenario 4 -----------------------------------------------------------------------
    def s4(self):
        f = self.f
        self.p("## Scenario 4 — a new connection per call vs kept alive (report 002)", "",
               "The same call in a row, latency per call (ms). New connection: REST sends `Connection: close`; "
               "gRPC builds a channel, calls, shuts it down. Report 002 (Nest.js): kept alive gRPC won by ~10 %; "
               "with a new connection per request gRPC was 2× slower than REST.", "")
        rows = []
        xs = sorted({k[3] for k in f.values if k[0] == "s4"})
        for service in ("person-spring", "auth-node"):
            for x in xs:
                k = lambda s, m="p50": ("s4", service, s, x, m)
                rows.append([service, cell(f.stat(*k("rest-kept-alive"))), cell(f.stat(*k("grpc-kept-alive"))),
                             cell(f.stat(*k("rest-new-connection"))), cell(f.stat(*k("grpc-new-connection"))),
                             cell(f.ratio(k("grpc-kept-alive"), k("rest-kept-alive")), 2, "×"),
                             cell(f.ratio(k("grpc-new-connection"), k("rest-new-connection")), 2, "×")])
        self.table(["service", "REST kept alive p50", "gRPC kept alive p50", "REST new conn. p50", "gRPC new conn. p50",
                    "gRPC ÷ REST, kept alive", "gRPC ÷ REST, new conn."], rows)

    # Scenario 5 -----------------------------------------------------------------------
    def s5(self):
        f = self.f
        self.p("## Scenario 5 — 100 concurrent clients, 14 KB and 256 KB answers (report 003)", "",
               "GetPerson of a stored person, the calls shared out among 100 threads. Java: REST on a pool of "
               "kept-alive HTTP/1.1 connections, gRPC on one channel. Python (the SDK): a connection per "
               "thread for REST (http.client), one grpcio channel.", "")
        rows = []
        for size in ("14KB", "256KB"):
            for series in ("java-rest", "java-grpc", "python-rest", "python-grpc"):
                k = lambda m: ("s5", "person-spring", series, size, m)
                if not f.has(*k("p50")):
                    continue
                rows.append([size, series, cell(f.stat(*k("p50"))), cell(f.stat(*k("p99"))), cell(f.stat(*k("throughput")))])
            rows.append([size, "report 003 (Python) p50", REPORT_S5[size], "", ""])
        self.table(["answer", "client", "p50 ms", "p99 ms", "calls/s"], rows)

    # Scenario 6 -----------------------------------------------------------------------
    def s6(self):
        f = self.f
        self.p("## Scenario 6 — where a call's time goes inside person-spring", "",
               "person-spring's own timers (Micrometer, person_call_phase_seconds at /actuator/prometheus), "
               "read around the run: mean µs per call of each phase, and its share of the call's whole time "
               "on the server. `map` is the DTO ↔ protobuf mapping (MapStruct).", "")
        rows = []
        phases = ["decode", "auth", "validate", "map", "store", "encode", "total"]
        for method in ("RegisterPerson", "GetPerson"):
            for phase in phases:
                k = ("s6", "person-spring", method, phase, "mean")
                share = f.ratio(k, ("s6", "person-spring", method, "total", "mean"))
                rows.append([method, phase, cell(f.stat(*k), 1), cell((share[0] * 100, share[1] * 100, share[2] * 100), 1, " %") if share else "–"])
        self.table(["method", "phase", "mean µs per call", "share of total"], rows)
        mapping = f.ratio(("s6", "person-spring", "GetPerson", "map", "mean"), ("s6", "person-spring", "GetPerson", "encode", "mean"))
        self.p("**Finding, not a target.** Report 002 claimed the DTO ↔ protobuf mapping costs about as much as "
               "the protobuf encoding it feeds, and so eats gRPC's gain. On small messages it does cost about "
               "that much: `make bench-person` (JMH) measures MapStruct's mapping of the small person at roughly "
               "the time of its encoding. In a real call both are a sliver of the whole: in GetPerson above, "
               f"mapping ÷ encode is {cell(mapping, 2, '×')} and both together are a few per cent of the call's "
               "time on the server; the store and the transport are the rest. What stays judged is what a "
               "caller feels: map + encode ≥ 2× faster than Jackson's JSON, and MapStruct within 1.2× of a "
               "hand-written mapper (`make bench-person` prints both with PASS or MISS).", "")

    # Scenario 7 -----------------------------------------------------------------------
    def s7(self):
        f = self.f
        levels = sorted({int(k[3]) for k in f.values if k[0] == "s7" and k[2] == "grpc-java"})
        self.p("## Scenario 7 — many RegisterPeople uploaders at once", "",
               "U uploaders, each a client with its own connection, each streaming people as fast as flow "
               "control lets it, all started together. People stored per second over the whole run (first "
               "start to last answer), streams that did not end OK, people sent but not in an OK answer, and "
               "person-spring's peak resident memory (its container has 1 GiB). Before this work a thread "
               "per stream from a pool of four refused the fifth stream at once.", "")
        rows = []
        worst_refused = None
        for u in levels:
            k = lambda m: ("s7", "person-spring", "grpc-java", str(u), m)
            refused = f.stat(*k("refused"))
            if refused and (worst_refused is None or refused[2] > worst_refused[0]):
                worst_refused = (refused[2], refused[1], refused[2])
            rows.append([u, cell(f.stat(*k("stored")), 0), cell(refused, 0), cell(f.stat(*k("missing")), 0),
                         cell(f.stat(*k("peak-rss")), 0)])
        self.table(["uploaders", "people stored /s", "refused streams", "people missing", "peak RSS MiB"], rows)
        self.target("s7: refused uploads at every level, 1 to 500 uploaders (worst run) = 0", worst_refused, 0,
                    above=False, unit="")
        if levels:
            self.target(f"s7: person-spring's peak RSS with {levels[-1]} uploaders ≤ 768 MiB (the fuzz suite's bound)",
                        f.stat("s7", "person-spring", "grpc-java", str(levels[-1]), "peak-rss"), 768, above=False, unit=" MiB")
        py = lambda m: f.stat("s7", "person-spring", "python", "64", m)
        if py("ok"):
            self.p("The trial that found the old limit, with the Python SDK: 64 clients each streaming 10 people "
                   "over one second (`benchmarks/python/uploaders.py`).", "")
            self.table(["clients", "OK", "refused", "people stored (found by ListPeople)", "people missing"],
                       [[64, cell(py("ok"), 0), cell(py("refused"), 0), cell(py("stored"), 0), cell(py("missing"), 0)]])
            refused = py("refused")
            self.target("s7: Python SDK, 64 clients × 10 people over 1 s, refused (worst run) = 0",
                        (refused[2], refused[1], refused[2]) if refused else None, 0, above=False, unit="")
        if levels:
            fig, ax = plt.subplots(figsize=(6.5, 4))
            st = [f.stat("s7", "person-spring", "grpc-java", str(u), "stored") for u in levels]
            ax.errorbar(levels, [s[0] for s in st], yerr=[[s[0] - s[1] for s in st], [s[2] - s[0] for s in st]],
                        marker="o", capsize=3, label="people stored /s")
            ax.set(xscale="log", xlabel="concurrent uploaders", ylabel="people stored per second",
                   title="Scenario 7: concurrent RegisterPeople uploaders")
            ax.grid(True, which="both", alpha=0.3)
            rss = [f.stat("s7", "person-spring", "grpc-java", str(u), "peak-rss") for u in levels]
            ax2 = ax.twinx()
            ax2.plot(levels, [r[0] for r in rss], color="C1", marker="s", linestyle="--", label="peak RSS (MiB)")
            ax2.set_ylabel("peak RSS (MiB)")
            fig.legend(loc="lower right", fontsize=8)
            self.save(fig, "s7-concurrent-uploads.png")

    # Outside load generator -----------------------------------------------------------
    def xc(self):
        f = self.f
        self.p("## One outside load generator for both protocols (h2load)", "",
               "h2load against the containers: REST over HTTP/1.1, gRPC over h2c with a length-prefixed "
               "message; 1 or 50 clients, each with its own connection and one call at a time. "
               "person-spring: GetPerson (auth-node's ValidateToken: the next section). Calls/s, median (min–max).", "")
        rows = []
        for service in ("person-spring",):
            for c in ("c1", "c50"):
                k = lambda s: ("xc", service, s, c, "throughput")
                r = f.ratio(k("h2load-grpc"), k("h2load-rest"))
                rows.append([service, c[1:], cell(f.stat(*k("h2load-rest")), 0), cell(f.stat(*k("h2load-grpc")), 0), cell(r, 2, "×")])
                self.target(f"h2load: gRPC ÷ REST calls/s, {service}, {c[1:]} client(s) ≥ 1", r, 1)
        self.table(["service", "clients", "REST calls/s", "gRPC calls/s", "gRPC ÷ REST"], rows)
        if "s1x" in f.scenarios():
            n = sorted({k[3] for k in f.values if k[0] == "s1x"})[0]
            ours_rest, ours_unary = f.stat("s1", "person-spring", "rest", n, "total"), f.stat("s1", "person-spring", "grpc-unary", n, "total")
            h2, gz = f.stat("s1x", "person-spring", "h2load-rest", n, "total"), f.stat("s1x", "person-spring", "ghz-grpc-unary", n, "total")
            self.p(f"Scenario 1 cross-check, N = {int(n):,} RegisterPerson calls in a row (total ms):", "")
            self.table(["protocol", "ours", "outside tool", "tool vs ours"],
                       [["REST", cell(ours_rest), "h2load " + cell(h2), self.disagree(ours_rest, h2)],
                        ["gRPC unary", cell(ours_unary), "ghz " + cell(gz), self.disagree(ours_unary, gz)]])
            self.p("A total time of calls in a row is the server's time plus the client's, per call. h2load sends the "
                   "same bytes again and again from C, so its REST total is below our Java HttpClient's, which "
                   "builds and parses each request; ghz builds each request from JSON by reflection and renders "
                   "a template (a fresh request_id) per call, so its gRPC total is above our generated Java "
                   "stub's. The server is the same; the clients' own costs differ.", "")

    # auth-node and its platform's ceiling -------------------------------------------------
    AUTH_NODE_TARGETS = {"c1": 0.9, "c50": 0.8}

    def an(self):
        f = self.f
        self.p("## auth-node beside its platform's ceiling (h2load)", "",
               "ValidateToken on auth-node's gRPC port and its REST twin, and a bare Node server (`benchmarks/node/ceiling.mjs`, "
               "same image, same memory limit) answering the same bytes over HTTP/2 with trailers and over HTTP/1.1: "
               "the most Node can do per call on each protocol, with no service behind it. One h2load for all four, "
               "1 or 50 clients, each with its own connection and one call at a time, interleaved in each repetition. "
               "Calls/s, median (min–max); ratios per repetition.", "")
        rows, costs = [], []
        for c in ("c1", "c50"):
            k = lambda svc, s: ("an", svc, s, c, "throughput")
            ours = f.ratio(k("auth-node", "grpc"), k("auth-node", "rest"))
            ceiling = f.ratio(k("node-ceiling", "h2"), k("node-ceiling", "h1"))
            ours_reps, ceil_reps = self.per_rep(k("auth-node", "grpc"), k("auth-node", "rest")), self.per_rep(k("node-ceiling", "h2"), k("node-ceiling", "h1"))
            share = [o / c_ for o, c_ in zip(ours_reps, ceil_reps)] if ours_reps and ceil_reps else []
            rows.append([c[1:], cell(f.stat(*k("auth-node", "rest")), 0), cell(f.stat(*k("auth-node", "grpc")), 0), cell(ours, 2, "×"),
                         cell(f.stat(*k("node-ceiling", "h1")), 0), cell(f.stat(*k("node-ceiling", "h2")), 0), cell(ceiling, 2, "×"),
                         cell(summary(share), 2, "×")])
            extra = lambda a, b: self.per_call_us(k(*a), k(*b))
            costs.append([c[1:], cell(extra(("auth-node", "grpc"), ("auth-node", "rest")), 0, " µs"),
                          cell(extra(("node-ceiling", "h2"), ("node-ceiling", "h1")), 0, " µs")])
            self.target(f"auth-node: gRPC ÷ REST calls/s (h2load, ValidateToken), {c[1:]} client(s) ≥ {self.AUTH_NODE_TARGETS[c]}",
                        ours, self.AUTH_NODE_TARGETS[c])
        self.table(["clients", "auth-node REST", "auth-node gRPC", "gRPC ÷ REST", "bare Node HTTP/1.1", "bare Node HTTP/2 + trailers",
                    "h2 ÷ h1", "auth-node's ratio ÷ the ceiling's"], rows)
        self.p("What a call over HTTP/2 costs more than over HTTP/1.1, per call (1/throughput, µs), for auth-node and for bare Node:", "")
        self.table(["clients", "auth-node: gRPC − REST", "bare Node: h2 − h1"], costs)

    def am(self):
        f = self.f
        self.p("## What auth-node's metrics cost (h2load)", "",
               "ValidateToken over gRPC on two auth-node containers started alike but for `AUTH_METRICS_ENABLED` "
               "(on: every call counted and timed, with its phases; off: nothing recorded), interleaved in each "
               "repetition. Calls/s, median (min–max).", "")
        rows = []
        for c in ("c1", "c50"):
            k = lambda s: ("am", "auth-node", s, c, "throughput")
            rows.append([c[1:], cell(f.stat(*k("metrics-off")), 0), cell(f.stat(*k("metrics-on")), 0),
                         cell(f.ratio(k("metrics-on"), k("metrics-off")), 3, "×"), cell(self.per_call_us(k("metrics-on"), k("metrics-off")), 1, " µs")])
        self.table(["clients", "metrics off", "metrics on", "on ÷ off", "cost per call"], rows)

    def per_rep(self, a, b):
        ra, rb = self.f.reps(*a), self.f.reps(*b)
        return [ra[k] / rb[k] for k in sorted(ra) if k in rb and rb[k]]

    def per_call_us(self, a, b):
        """1e6/a − 1e6/b per repetition (calls/s → µs per call), summarised."""
        ra, rb = self.f.reps(*a), self.f.reps(*b)
        return summary([1e6 / ra[k] - 1e6 / rb[k] for k in ra if k in rb and ra[k] and rb[k]])

    def save(self, fig, name):
        fig.tight_layout()
        fig.savefig(self.out / name, dpi=110)
        plt.close(fig)
        self.charts.append(name)

    def write(self):
        m = self.meta
        head = ["# Benchmarks: the field reports against our services", "",
                f"Run {m.get('date')}, plan `{m.get('plan')}`, {m.get('repetitions')} repetitions of every scenario; "
                "each figure is the median with (min–max); ratios are taken inside each repetition.", "",
                f"Machine: {m.get('cores')} cores, {num(m.get('memory', 0) / 1024, 1)} GiB; client {m.get('client JDK')}; "
                f"person-spring {m.get('person-spring JRE')}; auth-node Node {m.get('auth-node Node')}; "
                f"{m.get('ghz')}; {m.get('h2load')}.", "",
                f"Images: auth-node `{m.get('auth-node image', m.get('acme/auth-node:latest', '?'))[:19]}`, "
                f"person-spring `{m.get('person-spring image', m.get('acme/person-spring:latest', '?'))[:19]}`. "
                f"Settings: {m.get('person-spring settings')}. Warm-ups: {m.get('warm-ups')}.", "",
                "## Targets", ""]
        for section in (self.s1, self.s2, self.s3, self.s4, self.s5, self.s6, self.s7, self.xc, self.an, self.am):
            section()
        store_report.s1_transport(self, cell, num)
        store_report.section(self, cell, num)
        targets = ["| target | ours | verdict |", "|---|---:|---|"] + [f"| {t} | {v} | {ok} |" for t, v, ok in self.targets] + [""]
        charts = [f"![{c}]({c})" for c in self.charts] + [""]
        notes = (["## Notes from the run", ""] + [f"- {n}" for n in self.notes] + [""]) if self.notes else []
        (self.out / "report.md").write_text("\n".join(head + targets + charts + self.lines + notes))


def check(report, data):
    """The smoke run's assertions: the machinery worked, whatever the numbers."""
    problems = []
    present = report.f.scenarios()
    problems += [f"scenario {s} ({name}) has no figures" for s, name in SCENARIOS.items() if s not in present]
    for key, reps in report.f.values.items():
        if key[0] == "s2" and any(v <= 0 for v in reps.values()):
            problems.append(f"zero bytes counted: {key}")
        if any(v != v for v in reps.values()):
            problems.append(f"not a number: {key}")
    # Not a timing: an upload refused or failed is a broken service whatever the machine.
    problems += [f"uploads {key[4]} in scenario 7: {key} = {v}" for key, reps in report.f.values.items()
                 if key[0] == "s7" and key[4] in ("refused", "missing") for v in reps.values() if v != 0]
    problems += [f"chart not written: {c}" for c in ("s1-total-time-vs-n.png", "s3-latency-vs-size.png", "s7-concurrent-uploads.png")
                 if not (report.out / c).is_file() or (report.out / c).stat().st_size == 0]
    if not (report.out / "report.md").is_file():
        problems.append("report.md not written")
    return problems


def main():
    data = json.loads(Path(sys.argv[1]).read_text())
    data["rows"] += store_report.rows(Path(sys.argv[1]).parent)
    out = Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    report = Report(data, out)
    report.write()
    print((out / "report.md").read_text())
    if "--check" in sys.argv:
        problems = check(report, data)
        for p in problems:
            print(f"bench smoke: {p}", file=sys.stderr)
        sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
