"""bench-person-table.py JMH_JSON SIZES — the benchmark table for person-spring.

Prints markdown: ns/op and B/op (gc.alloc.rate.norm) with their 99.9% errors for every
benchmark and person size, the encoded sizes, and PASS/MISS for the issue's targets:
MapStruct within 1.2x of the hand-written mapper, and map+protobuf encode at least 2x
faster than Jackson encode for the medium person. Misses are reported, not fatal.
"""

import json
import sys

ORDER = [
    "handToProto", "mapstructToProto", "handFromProto", "mapstructFromProto",
    "protoEncode", "protoDecode", "jsonEncode", "jsonDecode",
    "mapAndProtoEncode", "protoDecodeAndMap",
]
SIZES = ["small", "medium", "large"]


def load(path):
    results = {}
    for r in json.load(open(path)):
        name = r["benchmark"].rsplit(".", 1)[1]
        size = r["params"]["size"]
        time = r["primaryMetric"]
        alloc = r["secondaryMetrics"].get("gc.alloc.rate.norm", {"score": float("nan"), "scoreError": float("nan")})
        # JMH writes "NaN" (a string) for the error of a single iteration.
        results[(name, size)] = tuple(float(x) for x in (time["score"], time["scoreError"], alloc["score"], alloc["scoreError"]))
    return results


def fmt(value, error):
    if value != value:  # NaN: not measured
        return "–"
    if error != error:
        return f"{value:,.1f}"
    return f"{value:,.1f} ± {error:,.1f}"


def main():
    results = load(sys.argv[1])
    print("| benchmark | " + " | ".join(f"{s} ns/op | {s} B/op" for s in SIZES) + " |")
    print("|---|" + "---:|---:|" * len(SIZES))
    for name in ORDER:
        if not any((name, s) in results for s in SIZES):
            continue
        cells = []
        for s in SIZES:
            t, te, a, ae = results.get((name, s), (float("nan"),) * 4)
            cells += [fmt(t, te), fmt(a, ae)]
        print(f"| {name} | " + " | ".join(cells) + " |")

    print("\n| person | protobuf bytes | JSON bytes |\n|---|---:|---:|")
    for line in open(sys.argv[2]):
        size, proto, js = line.split()
        print(f"| {size} | {int(proto):,} | {int(js):,} |")

    print("\nTargets:")
    def ns(name, size):
        return results.get((name, size), (float("nan"),))[0]
    for size in SIZES:
        for direction, hand, ms in (("DTO→proto", "handToProto", "mapstructToProto"),
                                    ("proto→DTO", "handFromProto", "mapstructFromProto")):
            ratio = ns(ms, size) / ns(hand, size)
            if ratio == ratio:
                verdict = "PASS" if ratio <= 1.2 else "MISS"
                print(f"- {verdict} MapStruct {direction} {size}: {ratio:.2f}x the hand-written mapper (target ≤ 1.2x)")
    speedup = ns("jsonEncode", "medium") / ns("mapAndProtoEncode", "medium")
    if speedup == speedup:
        verdict = "PASS" if speedup >= 2 else "MISS"
        print(f"- {verdict} medium person: map+protobuf encode is {speedup:.2f}x faster than Jackson encode (target ≥ 2x)")


if __name__ == "__main__":
    main()
