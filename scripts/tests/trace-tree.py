#!/usr/bin/env python3
"""trace-tree.py ZIPKIN_URL (TRACE_ID | --last SERVICE [SPAN_NAME]) — one trace as an indented tree.

Reads the trace from Zipkin's HTTP API (GET /api/v2/trace/ID; with --last, the newest trace of
SERVICE, optionally whose root has SPAN_NAME, from /api/v2/traces) and prints each span as
"service  name  duration  status", children under their parent, in start order:

    person-spring  acme.person.v1.personservice/registerperson  12.4 ms  OK
      person-spring  acme.auth.v1.authservice/validatetoken  3.1 ms  OK
        auth-node  acme.auth.v1.authservice/validatetoken  1.2 ms  OK
          auth-node  validate  0.1 ms
    ...

A span whose parent is not in the trace (the caller's, recorded elsewhere) is printed at the
top level. Standard library only, so any Python 3 runs it.
"""
import json
import sys
import urllib.parse
import urllib.request


def fetch(url):
    with urllib.request.urlopen(url, timeout=10) as res:
        return json.load(res)


def status(span):
    tags = span.get("tags", {})
    if "error" in tags:
        return tags["error"] if tags["error"] else "ERROR"
    if "grpc.status_code" in tags:
        return tags["grpc.status_code"]
    if tags.get("rpc.grpc.status_code") == "0":
        return "OK"
    return ""


def print_tree(spans, out=sys.stdout):
    ids = {s["id"] for s in spans}
    children = {}
    for s in spans:
        parent = s.get("parentId") if s.get("parentId") in ids else None
        children.setdefault(parent, []).append(s)

    def walk(parent, depth):
        for s in sorted(children.get(parent, []), key=lambda s: (s.get("timestamp", 0), s["id"])):
            service = s.get("localEndpoint", {}).get("serviceName", "?")
            line = f'{"  " * depth}{service}  {s.get("name", "?")}  {s.get("duration", 0) / 1000:.1f} ms  {status(s)}'
            print(line.rstrip(), file=out)
            walk(s["id"], depth + 1)

    walk(None, 0)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__.strip().splitlines()[0])
    base = argv[1].rstrip("/")
    if argv[2] == "--last":
        if len(argv) < 4:
            sys.exit("--last needs a service name")
        query = {"serviceName": argv[3], "limit": "10"}
        if len(argv) > 4:
            query["spanName"] = argv[4].lower()
        traces = fetch(f"{base}/api/v2/traces?{urllib.parse.urlencode(query)}")
        if not traces:
            sys.exit(f"Zipkin at {base} has no trace of {argv[3]}")
        spans = max(traces, key=lambda t: max(s.get("timestamp", 0) for s in t))
    else:
        spans = fetch(f"{base}/api/v2/trace/{argv[2]}")
    print_tree(spans)


if __name__ == "__main__":
    main(sys.argv)
