#!/usr/bin/env bash
# bench-person.sh — person-spring's JMH benchmarks in one command: builds the benchmarks
# module (root reactor, -Pbench), runs JMH with its GC profiler and prints the table of ns/op
# and B/op (± error), the encoded sizes, and PASS/MISS for the issue's two targets.
# Settings (env): BENCH_FORKS (1), BENCH_WARMUPS (3), BENCH_ITERATIONS (5), each iteration
# and warm-up 1 s; BENCH_FILTER (a JMH regexp, default all). About 6 minutes on 2 cores.
source "$(dirname "$0")/lib.sh"
cd "$ROOT"
module=services/person-spring/benchmarks
out="$ROOT/$module/target"

"$ROOT/scripts/sdk-java.sh" build >/dev/null
"${MVN[@]}" -q -Pbench -pl "$module" -am package \
  org.apache.maven.plugins:maven-dependency-plugin:3.9.0:build-classpath \
  -Dmdep.outputFile=target/classpath.txt -DskipTests
cp="$out/classes:$(cat "$out/classpath.txt")"

java -cp "$cp" com.acme.person.bench.EncodedSizes >"$out/sizes.txt"
java -cp "$cp" org.openjdk.jmh.Main "${BENCH_FILTER:-MappingBenchmark}" \
  -f "${BENCH_FORKS:-1}" -wi "${BENCH_WARMUPS:-3}" -w 1s -i "${BENCH_ITERATIONS:-5}" -r 1s \
  -prof gc -rf json -rff "$out/jmh.json" >"$out/jmh.log"
python3 "$ROOT/scripts/bench-person-table.py" "$out/jmh.json" "$out/sizes.txt" | tee "$out/table.md"
