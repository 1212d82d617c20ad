#!/usr/bin/env python3
"""demo-trace.py DEMO_LOG — checks the trace make demo printed last (trace-tree.py's tree, after
its "$ python3 scripts/tests/trace-tree.py" line): person-spring's GetPerson server span, under it
person-spring's ValidateToken client span, and under that auth-node's ValidateToken server span.
Exits non-zero, saying what is missing, otherwise prints the three lines it found.
"""
import re
import sys

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def tree(log):
    lines = [ANSI.sub("", line.rstrip("\n")) for line in open(log, encoding="utf-8")]
    starts = [i for i, line in enumerate(lines) if "scripts/tests/trace-tree.py" in line and line.lstrip().startswith("$")]
    if not starts:
        sys.exit(f"{log}: the demo printed no trace (no trace-tree.py command)")
    nodes = []
    for line in lines[starts[-1] + 1:]:
        # The demo indents its output by 3 spaces; the tree by 2 per level. Its lines end at the
        # first line that is not a span ("✓ …").
        body = line[3:]
        fields = body.split()
        if not line.startswith("   ") or len(fields) < 4 or "ms" not in fields:
            break
        depth = (len(body) - len(body.lstrip(" "))) // 2
        nodes.append((depth, fields[0], fields[1].lower(), line.strip()))
    return nodes


def child(nodes, parent, service, name):
    """The first span of SERVICE named NAME in the subtree of nodes[parent] (parent -1: anywhere)."""
    depth = nodes[parent][0] if parent >= 0 else -1
    for i in range(parent + 1, len(nodes)):
        if nodes[i][0] <= depth:
            return None
        if nodes[i][1] == service and nodes[i][2] == name:
            return i
    return None


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__.strip().splitlines()[0])
    nodes = tree(argv[1])
    if not nodes:
        sys.exit(f"{argv[1]}: the demo's trace has no spans")
    want = [("person-spring", "acme.person.v1.personservice/getperson", "person-spring's server span"),
            ("person-spring", "acme.auth.v1.authservice/validatetoken", "its client span to auth-node"),
            ("auth-node", "acme.auth.v1.authservice/validatetoken", "auth-node's server span")]
    at = -1
    for service, name, what in want:
        found = child(nodes, at, service, name)
        if found is None:
            where = "in the trace" if at < 0 else f"under '{nodes[at][3]}'"
            sys.exit(f"the demo's trace has no {what} ({service} {name}) {where}:\n" + "\n".join(n[3] for n in nodes))
        at = found
        print(f"  {what}: {nodes[found][3]}")


if __name__ == "__main__":
    main(sys.argv)
